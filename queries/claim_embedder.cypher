// Record the embedder (model and variant) that writes the vectors of index $index, and return
// what the graph records, so that car_graph.schema.claim_embedder can refuse another one.
// No document holds a vector yet: the record is (re)written with this embedder. Documents hold
// vectors but nothing is recorded (a graph embedded before car-graph recorded embedders): they
// came from $legacy_variant of the configured model, and that is recorded (inferred = true).
// Otherwise the record is left as it is.
// params: $index string, $model string, $variant string, $dimensions int, $legacy_variant string
// returns: model string, variant string, dimensions int, inferred boolean
OPTIONAL MATCH (d:Document)
WHERE d.embedding IS NOT NULL
WITH d IS NOT NULL AS embedded
LIMIT 1
MERGE (e:Embedder {index: $index})
ON CREATE SET e.model = $model, e.dimensions = $dimensions, e.inferred = embedded,
              e.variant = CASE WHEN embedded THEN $legacy_variant ELSE $variant END
SET e += CASE WHEN embedded THEN {}
              ELSE {model: $model, variant: $variant, dimensions: $dimensions, inferred: false} END
RETURN e.model AS model, e.variant AS variant, e.dimensions AS dimensions, e.inferred AS inferred
