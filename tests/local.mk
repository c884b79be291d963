# shared test helpers
