// The value types the kit's API takes and answers (set types, weights, refusals, rule
// sets, the queries' answers, sync outcomes) come with it: an app imports RepLedgerKit alone.
@_exported import RepLedgerCore
@_exported import RepLedgerProjections
@_exported import RepLedgerQueries
@_exported import RepLedgerSync
