//! Which games a tournament plays, in which order, with which seeds.
//!
//! - **Pairings.** With at least as many agents as seats, every combination
//!   of `players` distinct agents (in lexicographic order of agent index).
//!   With fewer agents than seats, every combination *with repetition*
//!   (non-decreasing index sequences) except those of a single agent, e.g.
//!   2 agents, 3 seats: `[0, 0, 1]` and `[0, 1, 1]`.
//! - **Seat rotations.** Each deck is played once per cyclic rotation of
//!   its pairing: in rotation `r`, seat `s` holds pairing member
//!   `(s + r) % players`, so every member sits in every seat once on the
//!   same tile order (for 2 players: pairs of games with seats swapped).
//!   `--games` per pairing is rounded up to a whole number of rotations.
//! - **Order.** Game index `g` (0-based, over the whole tournament):
//!   `rotation = g % players`, `unit = g / players`,
//!   `pairing = unit % pairings`, `deck = unit / pairings`. So all pairings
//!   advance together, and any prefix of the games is balanced.
//! - **Seeds** derive from the master seed only ([`deck_seed`],
//!   [`agent_seed`]): the deck seed from the deck number (so every pairing
//!   and rotation with that number sees the same tile order), each agent's
//!   seed from the game index and seat. Thread counts, shards and resumes
//!   change nothing. With `--secret-decks` the deck seeds come from a
//!   secret key instead ([`Schedule::with_deck_key`], [`protocol::secret`]).
//! - **Shards.** Shard `K/N` (1-based `K`) plays the games with
//!   `g % N == K − 1`.
//! - **Self-play** ([`Schedule::selfplay`]): one pairing of the single
//!   agent in every seat, and deck number `g` for game `g`, so no two
//!   games share a tile order (paired decks compare agents; self-play
//!   data wants variety).

use crate::seeds::mix;
use protocol::secret::Secret;

/// Domain tag of deck seeds ("DECK").
const DECK_TAG: u64 = 0x4445_434B;
/// Domain tag of agent seeds ("AGNT").
const AGENT_TAG: u64 = 0x4147_4E54;

/// The deck (tile draw) seed of deck number `deck`:
/// `mix(seed, "DECK", [deck])`.
pub fn deck_seed(seed: u64, deck: u64) -> u64 {
    mix(seed, DECK_TAG, &[deck])
}

/// The seed of the agent in `seat` of game `game`:
/// `mix(seed, "AGNT", [game, seat])`.
pub fn agent_seed(seed: u64, game: u64, seat: usize) -> u64 {
    mix(seed, AGENT_TAG, &[game, seat as u64])
}

pub use crate::results::schema::{Shard, ShardError};

/// An arithmetic run of game indices, `first, first + step, …` (`len` of
/// them): the games of a run or of what is left of it, held in constant
/// memory whatever its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameIndices {
    first: u64,
    step: u64,
    len: u64,
}

impl GameIndices {
    /// The indices below `end` from `first` on, `step` apart (`step` ≥ 1).
    pub fn new(first: u64, step: u64, end: u64) -> GameIndices {
        let len = if first >= end {
            0
        } else {
            (end - first - 1) / step + 1
        };
        GameIndices { first, step, len }
    }

    /// How many indices.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th index (0-based), if there is one.
    pub fn get(&self, i: u64) -> Option<u64> {
        (i < self.len).then(|| self.first + i * self.step)
    }

    /// All but the first `n`.
    pub fn skip(&self, n: u64) -> GameIndices {
        let n = n.min(self.len);
        GameIndices {
            first: self.first + n * self.step,
            step: self.step,
            len: self.len - n,
        }
    }

    /// The indices in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + use<> {
        let this = *self;
        (0..this.len).map(move |i| this.first + i * this.step)
    }
}

/// Everything about one game that the schedule decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Game index over the whole tournament.
    pub index: u64,
    /// Index into [`Schedule::pairings`].
    pub pairing: usize,
    /// Deck number.
    pub deck: u64,
    /// Seat rotation, `0..players`.
    pub rotation: usize,
    /// Agent index per seat.
    pub seats: Vec<usize>,
    /// Seed of the tile draws.
    pub deck_seed: u64,
    /// Seed per seat.
    pub agent_seeds: Vec<u64>,
}

/// The games of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Seats per game.
    pub players: usize,
    /// Master seed.
    pub seed: u64,
    /// Agent indices of each pairing, non-decreasing.
    pub pairings: Vec<Vec<usize>>,
    /// Decks (games per pairing / players) per pairing.
    pub decks: u64,
    /// The shard to play, if any.
    pub shard: Option<Shard>,
    /// Deck number = game index (self-play), instead of one deck per
    /// seat rotation of every pairing.
    pub deck_per_game: bool,
    /// The key of the deck seeds (`--secret-decks`); None: they derive
    /// from [`Schedule::seed`].
    pub deck_key: Option<Secret>,
}

impl Schedule {
    /// The schedule for `agents` agents, `players` seats and at least
    /// `games` games per pairing.
    pub fn new(agents: usize, players: usize, games: u64, seed: u64, shard: Option<Shard>) -> Self {
        Schedule {
            players,
            seed,
            pairings: pairings(agents, players),
            decks: games.div_ceil(players as u64),
            shard,
            deck_per_game: false,
            deck_key: None,
        }
    }

    /// The schedule of a self-play run: agent 0 in all `players` seats,
    /// at least `games` games, each on a deck of its own.
    pub fn selfplay(players: usize, games: u64, seed: u64, shard: Option<Shard>) -> Self {
        Schedule {
            players,
            seed,
            pairings: vec![vec![0; players]],
            decks: games.div_ceil(players as u64),
            shard,
            deck_per_game: true,
            deck_key: None,
        }
    }

    /// The same games with the deck seeds of `key` ([`Secret::deck_seed`]).
    pub fn with_deck_key(mut self, key: Secret) -> Self {
        self.deck_key = Some(key);
        self
    }

    /// Games per pairing (a whole number of rotations).
    pub fn games_per_pairing(&self) -> u64 {
        self.decks * self.players as u64
    }

    /// Games of the whole tournament (all shards).
    pub fn total_games(&self) -> u64 {
        self.games_per_pairing() * self.pairings.len() as u64
    }

    /// The game indices this run plays (its shard), in order, without
    /// materialising them.
    pub fn planned(&self) -> GameIndices {
        let (start, step) = match self.shard {
            Some(s) => (s.index - 1, s.count),
            None => (0, 1),
        };
        GameIndices::new(start, step, self.total_games())
    }

    /// The game indices this run plays (its shard), in order.
    pub fn indices(&self) -> impl Iterator<Item = u64> + use<> {
        self.planned().iter()
    }

    /// Games this run plays.
    pub fn planned_games(&self) -> u64 {
        self.planned().len()
    }

    /// Whether game `index` closes a whole set of seat rotations.
    pub fn ends_unit(&self, index: u64) -> bool {
        index % self.players as u64 == self.players as u64 - 1
    }

    /// The game with index `index`.
    pub fn game(&self, index: u64) -> GameSpec {
        let p = self.players as u64;
        let rotation = (index % p) as usize;
        let unit = index / p;
        let pairing = (unit % self.pairings.len() as u64) as usize;
        let deck = if self.deck_per_game {
            index
        } else {
            unit / self.pairings.len() as u64
        };
        let members = &self.pairings[pairing];
        let seats = (0..self.players)
            .map(|s| members[(s + rotation) % self.players])
            .collect();
        GameSpec {
            index,
            pairing,
            deck,
            rotation,
            seats,
            deck_seed: match &self.deck_key {
                Some(key) => key.deck_seed(deck),
                None => deck_seed(self.seed, deck),
            },
            agent_seeds: (0..self.players)
                .map(|s| agent_seed(self.seed, index, s))
                .collect(),
        }
    }
}

/// How many pairings [`pairings`] lists, computed without listing them:
/// `C(agents, players)` with at least as many agents as seats, else the
/// combinations with repetition `C(agents + players − 1, players)` less
/// the `agents` of a single agent. `None` when it does not fit in a
/// `u64`.
pub fn pairing_count(agents: usize, players: usize) -> Option<u64> {
    let choose = |n: u128, k: u128| -> Option<u128> {
        if k > n {
            return Some(0);
        }
        // Each partial product is a binomial coefficient, so it divides.
        (0..k).try_fold(1u128, |c, i| Some(c.checked_mul(n - i)? / (i + 1)))
    };
    let (n, k) = (agents as u128, players as u128);
    let count = if n >= k {
        choose(n, k)?
    } else {
        choose(n + k - 1, k)? - n
    };
    u64::try_from(count).ok()
}

/// The pairings of `agents` agents in games of `players` seats (see the
/// module documentation); check [`pairing_count`] before listing them.
pub fn pairings(agents: usize, players: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(players);
    let repeat = agents < players;
    fn extend(
        current: &mut Vec<usize>,
        from: usize,
        agents: usize,
        players: usize,
        repeat: bool,
        out: &mut Vec<Vec<usize>>,
    ) {
        if current.len() == players {
            if current.first() != current.last() {
                out.push(current.clone());
            }
            return;
        }
        for a in from..agents {
            current.push(a);
            extend(
                current,
                if repeat { a } else { a + 1 },
                agents,
                players,
                repeat,
                out,
            );
            current.pop();
        }
    }
    extend(&mut current, 0, agents, players, repeat, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairing_counts_are_computed_without_listing() {
        for agents in 1..9 {
            for players in 2..=6 {
                let listed = pairings(agents, players).len() as u64;
                assert_eq!(
                    pairing_count(agents, players),
                    Some(listed),
                    "{agents} {players}"
                );
            }
        }
        assert_eq!(pairing_count(200, 6), Some(82_408_626_300));
        assert_eq!(pairing_count(usize::MAX, 6), None);
    }

    #[test]
    fn pairings_are_combinations() {
        assert_eq!(pairings(3, 2), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(pairings(4, 3).len(), 4);
        assert_eq!(pairings(2, 3), vec![vec![0, 0, 1], vec![0, 1, 1]]);
        assert_eq!(pairings(2, 2), vec![vec![0, 1]]);
    }

    #[test]
    fn every_deck_is_played_in_every_rotation() {
        let s = Schedule::new(3, 2, 3, 7, None);
        assert_eq!(s.games_per_pairing(), 4);
        assert_eq!(s.total_games(), 12);
        let g0 = s.game(0);
        let g1 = s.game(1);
        assert_eq!(g0.seats, vec![0, 1]);
        assert_eq!(g1.seats, vec![1, 0]);
        assert_eq!(g0.deck_seed, g1.deck_seed);
        assert_ne!(g0.agent_seeds, g1.agent_seeds);
        assert_eq!(s.game(2).seats, vec![0, 2]);
        assert_eq!(s.game(2).deck_seed, g0.deck_seed);
        assert_ne!(s.game(6).deck_seed, g0.deck_seed);
        let t = Schedule::new(3, 3, 3, 7, None);
        let seats: Vec<Vec<usize>> = (0..3).map(|g| t.game(g).seats).collect();
        assert_eq!(seats, vec![vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
    }

    #[test]
    fn shards_partition_the_games() {
        let s = Schedule::new(3, 2, 10, 1, None);
        let mut all: Vec<u64> = (1..=3)
            .flat_map(|k| {
                let mut t = s.clone();
                t.shard = Some(Shard { index: k, count: 3 });
                t.indices().collect::<Vec<_>>()
            })
            .collect();
        all.sort();
        assert_eq!(all, s.indices().collect::<Vec<_>>());
        assert!("0/2".parse::<Shard>().is_err());
        assert!("3/2".parse::<Shard>().is_err());
        assert_eq!(
            "2/2".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 2 }
        );
    }

    /// Issue 8: `--games 1000000000` materialised every game index (6.3 GB
    /// before the first game). The largest accepted run is planned in
    /// constant memory and time.
    #[test]
    fn the_largest_run_is_planned_lazily() {
        let max = crate::run::config::MAX_GAMES;
        let s = Schedule::new(2, 2, max, 1, None);
        assert_eq!(s.planned_games(), max);
        let planned = s.planned();
        assert_eq!(std::mem::size_of_val(&planned), 24);
        assert_eq!(planned.get(max - 1), Some(max - 1));
        assert_eq!(planned.get(max), None);
        let rest = planned.skip(max - 2);
        assert_eq!(rest.iter().collect::<Vec<_>>(), vec![max - 2, max - 1]);
        let mut sharded = s.clone();
        sharded.shard = Some(Shard { index: 3, count: 7 });
        let p = sharded.planned();
        assert_eq!(p.len(), (max - 3) / 7 + 1);
        assert_eq!(p.get(1), Some(9));
        assert_eq!(p.skip(u64::MAX).len(), 0);
        assert!(GameIndices::new(5, 2, 5).is_empty());
    }

    #[test]
    fn self_play_games_each_have_a_deck_and_every_seat_the_agent() {
        let s = Schedule::selfplay(3, 5, 7, None);
        assert_eq!(s.total_games(), 6);
        let games: Vec<GameSpec> = (0..6).map(|g| s.game(g)).collect();
        assert!(games.iter().all(|g| g.seats == vec![0, 0, 0]));
        for (g, spec) in games.iter().enumerate() {
            assert_eq!(spec.deck_seed, deck_seed(7, g as u64));
        }
    }

    #[test]
    fn seeds_are_pinned() {
        // Changing the derivation changes every published result.
        assert_eq!(crate::seeds::splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }
}
