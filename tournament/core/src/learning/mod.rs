//! Learning from self-play: the decisions of a run as rows of
//! positions.csv ([`positions`]) and as training examples of the `az`
//! network ([`examples`]), fitting a value model to the positions
//! ([`train`]) and training the network on the examples ([`train_net`]).

pub mod examples;
pub mod positions;
pub mod train;
pub mod train_net;
