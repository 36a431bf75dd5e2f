// How many nodes the anchor indexes can return at most: current documents and closed versions
// (car_graph/retrieval.py stops searching deeper once it asks each index for this many).
// params: (none)
// returns: searchable int
CALL () {
  MATCH (d:Document)
  RETURN count(d) AS documents
}
CALL () {
  MATCH (v:DocumentVersion)
  RETURN count(v) AS versions
}
RETURN documents + versions AS searchable
