//! specval: checks API traffic and payloads against the contract specgen writes.
