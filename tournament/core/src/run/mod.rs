//! A run from its settings to its games: checking a tournament
//! ([`config`]), its agents ([`agent_list`], [`roster`]), which games with
//! which seeds ([`schedule`]), playing them on a pool ([`runner`]), the
//! run from start to finish ([`tournament`]) and what a resumption keeps
//! ([`resume`]), the
//! `--sprt` stop ([`sprt_run`]), the guards around a run: Ctrl-C
//! ([`interrupt`]) and one writer per folder ([`lock`]), and combining
//! the folders of a sharded run ([`merge`]).

pub mod agent_list;
pub mod config;
pub mod interrupt;
pub mod lock;
pub mod merge;
pub mod resume;
pub mod roster;
pub mod runner;
pub mod schedule;
pub mod sprt_run;
pub mod tournament;
