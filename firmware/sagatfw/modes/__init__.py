# sagat match modes: one pure engine per field game, on a shared base. Import only the
# active mode's module (sagatfw.modes.kokboru or sagatfw.modes.kilithattu); each imports base.py.
# The API, the events and their fields: the top of base.py and docs/match.md.
