// The embedder recorded for the vectors of index $index (no row: nothing recorded yet).
// params: $index string
// returns: model string, variant string, dimensions int, inferred boolean
MATCH (e:Embedder {index: $index})
RETURN e.model AS model, e.variant AS variant, e.dimensions AS dimensions, e.inferred AS inferred
