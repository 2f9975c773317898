"""Running the student's code: the child process, its limits, its fences and the channel back.

``launch`` chooses how a child starts here (``bwrap``, ``posix`` or ``spawn``, on the ``View`` and
``Launcher`` of ``launcher``); ``session`` runs one submission's requests over the channel with the
``harness`` on the other side, which never imports ``grader`` (nor do ``guard``, ``landlock`` and
the other files copied into the child); ``forkserver`` and ``zygote`` keep a warm child for a class.
It sends plain data back and judges nothing.

May import: grader.paths
"""
