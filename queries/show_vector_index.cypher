// One vector index by name, so schema apply can refuse a dimension mismatch instead of rebuilding.
// params: $name string
// returns: name string, labels list<string>, properties list<string>, dimensions int|null,
//          similarity string|null, state string
SHOW VECTOR INDEXES
YIELD name, labelsOrTypes, properties, options, state
WHERE name = $name
RETURN name, labelsOrTypes AS labels, properties,
       options.indexConfig['vector.dimensions'] AS dimensions,
       options.indexConfig['vector.similarity_function'] AS similarity, state
