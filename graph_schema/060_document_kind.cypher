// Filter documents by kind (e.g. regulation, guidance) without a label scan.
// params: (none)
// returns: (nothing)
CREATE RANGE INDEX document_kind IF NOT EXISTS
FOR (d:Document) ON (d.kind)
