"""A clock's log on the PC, read and checked with the firmware's own modules (one codec, two runtimes).

    decode       the records decoded and checked by the firmware's reader: Log, Result, read_segments
    flash        the log's segments in a littlefs image (the simulator's flash, a board's dump)
    pulled       the folder `sagat logs pull` and the hall write (records.bin, head.json): its one reader
    reproduce    each game and match replayed through the firmware's engines (matchreplay, resultcheck)
    head, code   a pull's signed head, a result code from the faces, against the log
    verify       ONE verify of a pulled log: a typed Verdict (`sagat logs verify`, the hall, `sagat report`)
    show         `sagat logs show`: a game's table, a match's score sheet
    export       CSV and JSON lines

Below it: the pull (sagat.pull writes a pulled folder and imports nothing of this package) and the
firmware's pure modules (sagatfw.log.*)."""
