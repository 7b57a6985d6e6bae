# The serial link: the protocol's words (wire.py), the server and its log pull, the commands'
# handlers (commands.py, log.py, match.py), the request signatures (auth.py) and the stream.
