//! `carcassonne improve`: generations of self-play, training and
//! SPRT-gated promotion, for the linear value model ([`linear`]) and for
//! the `az` network ([`net`], `--net`), made of the same steps
//! ([`steps`]).

pub mod linear;
pub mod net;
pub mod steps;
