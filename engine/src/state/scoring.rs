//! Scoring: completed features during the game, and the final scoring
//! (RULES.md §3–4, and the unopened gifts of §5).

use super::{State, MAX_MEEPLES};
use crate::board::Touched;
use crate::features::{segment_id, SegmentId, MAX_TILES};
use crate::seat::{PerSeat, Score, Seat, MAX_PLAYERS};
use crate::tiles::{FeatureKind, NO_SEGMENT};
use crate::turn::{Action, Phase};

/// Add `points` of feature `kind` to `score`.
#[inline]
fn add_points(score: &mut Score, kind: FeatureKind, points: u16) {
    match kind {
        FeatureKind::Road => score.road += points,
        FeatureKind::City => score.city += points,
        FeatureKind::Monastery => score.monastery += points,
        FeatureKind::Field => score.farm += points,
    }
}

impl State {
    /// Give `points` of feature `kind` to `seat`.
    pub(super) fn add_points(&mut self, seat: Seat, kind: FeatureKind, points: u16) {
        add_points(&mut self.scores[seat], kind, points);
    }

    /// Score the roads, cities and monasteries the tile in `slot`
    /// completed.
    pub(super) fn score_completed(&mut self, slot: usize, touched: &Touched) {
        let placed = *self.board.placed(slot);
        for (i, seg) in placed.tile.def().segments.iter().enumerate() {
            if matches!(seg.kind, FeatureKind::Road | FeatureKind::City) {
                let root = self.features.find(segment_id(slot, i as u8));
                if self.features.open(root) == 0 && self.features.meeples(root) > 0 {
                    let tiles = self.features.tiles(root) as u16;
                    let (points, kind) = if seg.kind == FeatureKind::Road {
                        (tiles, FeatureKind::Road)
                    } else {
                        (
                            2 * (tiles + self.features.shields(root) as u16),
                            FeatureKind::City,
                        )
                    };
                    self.award(root, points, kind);
                    self.remove_meeples(root);
                }
            }
        }
        for &s in touched.surrounded() {
            let s = s as usize;
            let p = self.board.placed(s);
            let mono = p.tile.oriented(p.rot).monastery;
            if mono != NO_SEGMENT {
                let id = segment_id(s, mono);
                if self.features.meeples(id) > 0 {
                    self.award(id, 9, FeatureKind::Monastery);
                    self.remove_meeples(id);
                }
            }
        }
    }

    /// Give `points` of `kind` to every seat with the most meeples on the
    /// feature with root `root`.
    pub(super) fn award(&mut self, root: SegmentId, points: u16, kind: FeatureKind) {
        let counts = self.meeples_on(root);
        let most = *counts.0.iter().max().expect("six seats");
        if most == 0 {
            return;
        }
        for s in 0..self.players {
            if counts[Seat(s)] == most {
                self.add_points(Seat(s), kind, points);
            }
        }
    }

    /// Return the meeple at index `k` of the meeple list to its owner's
    /// supply (the feature's meeple count is the caller's to update).
    pub(super) fn return_meeple_at(&mut self, k: usize) {
        let m = self.meeples[k];
        self.supply[m.seat] += 1;
        self.meeple_len -= 1;
        self.meeples[k] = self.meeples[self.meeple_len as usize];
    }

    /// Return every meeple on the feature with root `root` to its owner.
    pub(super) fn remove_meeples(&mut self, root: SegmentId) {
        let mut i = 0;
        while i < self.meeple_len as usize {
            let m = self.meeples[i];
            if self.features.find(m.segment) == root {
                self.return_meeple_at(i);
            } else {
                i += 1;
            }
        }
        let n = self.features.meeples(root);
        self.features.add_meeples(root, -(n as i8));
    }

    /// Calls `f(field root, city root)` for every field segment on the
    /// board whose root passes `wanted` and that borders a completed city
    /// (a pair may come more than once).
    fn for_each_field_city(
        &self,
        wanted: impl Fn(SegmentId) -> bool,
        mut f: impl FnMut(SegmentId, SegmentId),
    ) {
        for (slot, p) in self.board.tiles().iter().enumerate() {
            for (i, seg) in p.tile.def().segments.iter().enumerate() {
                let mut touches = seg.touches;
                if touches == 0 {
                    continue;
                }
                let field = self.features.root(segment_id(slot, i as u8));
                if !wanted(field) {
                    continue;
                }
                while touches != 0 {
                    let c = touches.trailing_zeros() as u8;
                    touches &= touches - 1;
                    let city = self.features.root(segment_id(slot, c));
                    if self.features.open(city) == 0 {
                        f(field, city);
                    }
                }
            }
        }
    }

    /// Distinct completed cities touching the field with root `field`.
    pub(super) fn completed_cities_touching(&self, field: SegmentId) -> u32 {
        let mut cities = [0u16; 2 * MAX_TILES];
        let mut n = 0;
        self.for_each_field_city(
            |f| f == field,
            |_, city| {
                if !cities[..n].contains(&city) {
                    cities[n] = city;
                    n += 1;
                }
            },
        );
        n as u32
    }

    /// What every seat would score if the game ended now: the points
    /// scored so far plus the final scoring (RULES.md §4) of every meeple
    /// still on the board and 2 per unopened gift (§5). The state is not
    /// changed (nor copied); each meeple's feature is looked up once. For a
    /// finished game these are the final scores.
    ///
    /// # Examples
    /// ```
    /// use engine::{Move, Pos, Rotation, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.draw(Tile::U).unwrap();
    /// // A road tile east of the start, a meeple on its road (segment 0).
    /// let rot = Rotation::new(1).unwrap();
    /// state.try_play(Move::place(Pos::new(1, 0), rot).with_meeple(0)).unwrap();
    /// let end_now = state.end_now_scores();
    /// assert_eq!(state.score(Seat(0)).total(), 0); // nothing scored yet
    /// assert_eq!(end_now[Seat(0)].road, 2); // the open road of 2 tiles
    /// ```
    pub fn end_now_scores(&self) -> PerSeat<Score> {
        let mut scores = self.scores;
        if self.phase == Phase::Over {
            return scores;
        }
        // The distinct features holding meeples, with each seat's meeples.
        let mut roots = [0 as SegmentId; MAX_MEEPLES];
        let mut counts = [[0u8; MAX_PLAYERS]; MAX_MEEPLES];
        let mut n = 0;
        let mut farmed = false;
        for m in &self.meeples[..self.meeple_len as usize] {
            let root = self.features.root(m.segment);
            let k = match roots[..n].iter().position(|&r| r == root) {
                Some(k) => k,
                None => {
                    roots[n] = root;
                    farmed |= self.segment_kind(root) == FeatureKind::Field;
                    n += 1;
                    n - 1
                }
            };
            counts[k][m.seat.index()] += 1;
        }
        let farms = if farmed && self.rules().farmers {
            self.farm_city_pairs()
        } else {
            FarmCities::default()
        };
        for (&root, counts) in roots[..n].iter().zip(&counts) {
            let kind = self.segment_kind(root);
            let points = match kind {
                FeatureKind::Field if !self.rules().farmers => continue,
                FeatureKind::Field => 3 * farms.count(root),
                // `final_incomplete: false`: unfinished roads, cities and
                // monasteries score nothing (RULES.md §8); fields still do.
                _ if !self.rules().final_incomplete => continue,
                _ => self.feature_value(root) as u16,
            };
            let most = *counts.iter().max().expect("six seats");
            for (s, &c) in counts.iter().enumerate().take(self.players as usize) {
                if c == most {
                    add_points(&mut scores.0[s], kind, points);
                }
            }
        }
        for s in 0..self.players as usize {
            scores.0[s].gifts += 2 * self.gifts.hands[s].total() as u16;
        }
        scores
    }

    /// The end-now scores ([`State::end_now_scores`]) right after `action`
    /// is played: the points it scores included, an opened gift no longer
    /// counting 2. `action` must be legal (checked only by `debug_assert!`).
    /// `self` is not changed.
    ///
    /// # Examples
    /// ```
    /// use engine::{Action, Move, Pos, Rotation, Rules, Seat, State, Tile};
    ///
    /// let mut state = State::new(Rules::default(), 2, Seat(0));
    /// state.draw(Tile::U).unwrap();
    /// let rot = Rotation::new(1).unwrap();
    /// let mv = Move::place(Pos::new(1, 0), rot).with_meeple(0);
    /// let after = state.end_now_scores_after(Action::Place(mv));
    /// state.try_play(mv).unwrap();
    /// assert_eq!(after, state.end_now_scores());
    /// ```
    pub fn end_now_scores_after(&self, action: Action) -> PerSeat<Score> {
        let mut after = self.clone();
        after.play_action_unchecked(action);
        after.end_now_scores()
    }

    /// End the game now: the final scoring of every meeple still on the
    /// board (RULES.md §4; only farmers with `final_incomplete: false`) and
    /// of the unopened gifts. Used when the bag
    /// runs out, and by `replay --end` to score a position. Meeples stay
    /// where they are.
    pub(crate) fn finish(&mut self) {
        if self.phase == Phase::Over {
            return;
        }
        self.scores = self.end_now_scores();
        self.phase = Phase::Over;
    }

    /// Every (occupied field, completed city) pair that touch, once each.
    fn farm_city_pairs(&self) -> FarmCities {
        let mut out = FarmCities::default();
        self.for_each_field_city(
            |field| self.features.meeples(field) > 0,
            |field, city| {
                out.pairs[out.len] = (field as u32) << 16 | city as u32;
                out.len += 1;
            },
        );
        out.pairs[..out.len].sort_unstable();
        out
    }
}

/// Sorted (field root, city root) pairs, packed as `field << 16 | city`.
/// A tile borders at most two (field, city) pairs, so 144 is enough.
struct FarmCities {
    pairs: [u32; 2 * MAX_TILES],
    len: usize,
}

impl Default for FarmCities {
    fn default() -> FarmCities {
        FarmCities {
            pairs: [0; 2 * MAX_TILES],
            len: 0,
        }
    }
}

impl FarmCities {
    /// Distinct completed cities touching the field with root `field`.
    fn count(&self, field: SegmentId) -> u16 {
        let mut n = 0;
        let mut last = None;
        for &p in &self.pairs[..self.len] {
            if p >> 16 == field as u32 && last != Some(p) {
                n += 1;
                last = Some(p);
            }
        }
        n
    }
}
