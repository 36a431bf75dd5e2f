// Stop every transaction of one `car-graph mcp` tool call, found by the call id the server puts
// in each transaction's metadata (car_call): a call past its deadline (--call-timeout) or
// cancelled by its client must not leave a statement running on the server.
// params: $call string
// returns: transaction_id string, message string
SHOW TRANSACTIONS YIELD transactionId, metaData
WHERE metaData.car_call = $call
TERMINATE TRANSACTIONS transactionId
YIELD transactionId AS transaction_id, message
RETURN transaction_id, message
