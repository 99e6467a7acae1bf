//! The agents' integration tests, one test binary (one link instead of
//! one per file): each module is one former `tests/*.rs` file.

mod agents;
#[cfg(feature = "neural")]
mod az_net;
mod docs;
mod hands;
