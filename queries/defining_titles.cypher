// Titles that may define a short name: those holding a parenthesised term ("The Point-to-Point
// Protocol (PPP)"). car_graph.linking.title_definitions decides which do (the term's capitals
// are the initials of the words before it, and little else is in the title); read once per
// graph version, and only once a question writes a term with two capitals.
// params: (none)
// returns: id string, title string
MATCH (d:Document)
WHERE d.title CONTAINS '(' AND d.title CONTAINS ')'
RETURN d.id AS id, d.title AS title
