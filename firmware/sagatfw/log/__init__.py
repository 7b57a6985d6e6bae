# The log and what the flash keeps: the record format, the journal and its boot, the checkpoint,
# the settings file, and reading a log back (game and match records, replay). Above engine/.
