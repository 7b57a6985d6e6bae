# sagat firmware: the package copied to the board (and imported by the host for its pure modules).
VERSION = "0.1.0"
