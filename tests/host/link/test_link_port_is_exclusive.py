"""Two programs on one clock's port steal each other's answers: two halls on one port, or `sagat`
beside a hall. A connection takes the port for itself (pyserial's exclusive lock, POSIX flock), so
the second one is refused in one line that says why, and the first keeps its answers. Over a real
pseudo-terminal."""

import os

import pytest

from sagat import client


@pytest.fixture
def pty_port():
    master, slave = os.openpty()
    path = os.ttyname(slave)
    yield path
    os.close(master)
    os.close(slave)


def test_a_second_connection_to_a_port_in_use_is_refused_with_the_reason(pty_port):
    first = client.Clock(pty_port, 1.0)
    try:
        with pytest.raises(client.LinkError) as e:
            client.Clock(pty_port, 1.0)
        msg = str(e.value)
        assert msg.startswith(f"cannot open {pty_port}: ") and "in use" in msg and "\n" not in msg, msg
    finally:
        first.close()
    second = client.Clock(pty_port, 1.0)  # free again once the first is closed
    second.close()
