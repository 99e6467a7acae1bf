//! Learning from self-play: the decisions of a run as rows of
//! positions.csv ([`positions`]) and as training examples of the `az`
//! network ([`examples`]), fitting a value model to the positions
//! ([`train`]) and training the network on the examples ([`train_net`]);
//! the examples' file names ([`shards`]). `examples` and `train_net` are
//! the core's feature `neural` (on by default).

#[cfg(feature = "neural")]
pub mod examples;
pub mod positions;
pub mod shards;
pub mod train;
#[cfg(feature = "neural")]
pub mod train_net;
