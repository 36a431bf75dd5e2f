// Supersession edges in the graph, by the rule that made them.
// params: (none)
// returns: rule string, edges int
MATCH ()-[s:SUPERSEDES]->()
RETURN s.rule AS rule, count(s) AS edges
ORDER BY rule
