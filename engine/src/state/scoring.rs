//! Scoring in play: the features a placement completes (RULES.md §3),
//! and ending the game with the final scoring (§4, computed in
//! `end_now`).

use super::State;
use crate::board::Touched;
use crate::features::{segment_id, SegmentId};
use crate::seat::Seat;
use crate::tiles::{roads_and_cities, FeatureKind, NO_SEGMENT};
use crate::turn::Phase;

impl State {
    /// Give `points` of feature `kind` to `seat`.
    pub(super) fn add_points(&mut self, seat: Seat, kind: FeatureKind, points: u16) {
        super::end_now::add_points(&mut self.scores[seat], kind, points);
    }

    /// Score the roads, cities and monasteries the tile in `slot`
    /// completed.
    #[inline(always)]
    pub(super) fn score_completed(&mut self, slot: usize, touched: &Touched) {
        let placed = *self.board.placed(slot);
        // Its road and city segments by a mask per kind: no test of each
        // segment's kind.
        let mut segments = roads_and_cities(placed.tile);
        while segments != 0 {
            let i = segments.trailing_zeros() as u8;
            segments &= segments - 1;
            let root = self.features.find(segment_id(slot, i));
            if self.features.open(root) == 0 && self.features.meeples(root) > 0 {
                let tiles = self.features.tiles(root) as u16;
                let kind = placed.tile.def().segments[i as usize].kind;
                let points = if kind == FeatureKind::Road {
                    tiles
                } else {
                    2 * (tiles + self.features.shields(root) as u16)
                };
                self.award(root, points, kind);
                self.remove_meeples(root);
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
}
