# sagat's bottom layer: time arithmetic (ticks and their wrap), the TimeControl type, its parser
# and the presets. Pure; imports nothing of sagat's but the root package.
