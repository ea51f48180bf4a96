//! Prefill and decode servers of one disaggregated (PD) deployment, checked as a pair: the
//! settings the KV-cache transfer needs both sides to agree on.
