// Fragment: the document a node found in the graph's indexes stands for: a closed version
//   (:DocumentVersion, found through the version indexes or a WAS_LINKED link) stands for the
//   document it is a version of (VERSION_OF: a :Document, or a :RetiredDocument once deleted);
//   any other node for itself. Callers then keep the node only if it is that document's version
//   recorded at known_at (@known_version).
// slots: found node
// locals: identity
// params: (none)
// returns: node
CASE WHEN found:DocumentVersion
     THEN COLLECT { MATCH (found)-[:VERSION_OF]->(identity) RETURN identity }[0]
     ELSE found END
