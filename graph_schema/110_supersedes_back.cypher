// Cycle detection after each batch starts from the documents that make a "back" edge (to a
// document published no earlier than themselves): every cycle holds one.
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX supersedes_back IF NOT EXISTS
FOR ()-[s:SUPERSEDES]-() ON (s.back)
