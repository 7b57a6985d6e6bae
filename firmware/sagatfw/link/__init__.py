# The serial link: the protocol's words (link/wire.py), the server and its log pull, the commands'
# handlers (link/commands.py, log.py, matchproto.py), the request signatures (link/auth.py) and the stream.
