// One stored rule set per name (a domain, or '*' for rules of every domain).
// params: (none)
// returns: (nothing)
CREATE CONSTRAINT ruleset_name IF NOT EXISTS
FOR (s:RuleSet) REQUIRE s.name IS UNIQUE
