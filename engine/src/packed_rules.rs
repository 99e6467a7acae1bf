//! The rules as a [`State`](crate::State) stores them: every option of
//! [`Rules`] in four bytes, so that the §8 variants do not grow the state
//! search clones at every node.

use crate::board::Bounds;
use crate::rules::{Rules, Table, Unplaceable};

const FARMERS: u8 = 1;
const GIFTS: u8 = 1 << 1;
const HAND_VISIBLE: u8 = 1 << 2;
const START_IN_BAG: u8 = 1 << 3;
const RETURN: u8 = 1 << 4;
const HOLE_BONUS: u8 = 1 << 5;
const FINAL_INCOMPLETE: u8 = 1 << 6;
const TABLE_CLOSES: u8 = 1 << 7;
/// In the hand byte: the seat to play filled a hole and plays again.
const BONUS_TURN: u8 = 1 << 7;
const HAND_MASK: u8 = 0b11;

/// [`Rules`] packed: eight flags, the hand size, and the table's width and
/// height (0 = no table). The hand byte's top bit also holds one bit of
/// turn state, the pending `hole_bonus` turn, so that the state keeps its
/// size (RULES.md §8 cost no bytes of `State`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PackedRules {
    flags: u8,
    /// Bits 0–1: the hand size; bit 7: [`BONUS_TURN`].
    hand: u8,
    table: [u8; 2],
}

impl PackedRules {
    /// Pack `rules` (lossless for every rules [`Rules::validate`] accepts).
    pub(crate) fn pack(rules: Rules) -> PackedRules {
        let bit = |on: bool, b: u8| if on { b } else { 0 };
        PackedRules {
            flags: bit(rules.farmers, FARMERS)
                | bit(rules.gifts, GIFTS)
                | bit(rules.hand_visible, HAND_VISIBLE)
                | bit(rules.start_in_bag, START_IN_BAG)
                | bit(rules.unplaceable == Unplaceable::Return, RETURN)
                | bit(rules.hole_bonus, HOLE_BONUS)
                | bit(rules.final_incomplete, FINAL_INCOMPLETE)
                | bit(rules.table_closes, TABLE_CLOSES),
            hand: rules.hand,
            table: rules.table.map_or([0, 0], |t| [t.width, t.height]),
        }
    }

    /// `unplaceable: return`: unplaceable draws go back into the bag.
    #[inline]
    pub(crate) fn returns_unplaceable(self) -> bool {
        self.flags & RETURN != 0
    }

    /// The table's play area (unbounded without a table).
    #[inline]
    pub(crate) fn bounds(self) -> Bounds {
        Bounds::table(self.table[0], self.table[1], self.flags & TABLE_CLOSES != 0)
    }

    /// `table_closes`: the table's border closes features.
    #[inline]
    pub(crate) fn table_closes(self) -> bool {
        self.flags & TABLE_CLOSES != 0
    }

    /// Tiles in each hand (0 without the variant).
    #[inline]
    pub(crate) fn hand(self) -> u8 {
        self.hand & HAND_MASK
    }

    /// Whether the seat to play filled a hole this turn and plays again.
    #[inline]
    pub(crate) fn bonus_turn(self) -> bool {
        self.hand & BONUS_TURN != 0
    }

    /// Set or clear the pending bonus turn.
    #[inline]
    pub(crate) fn set_bonus_turn(&mut self, on: bool) {
        self.hand = (self.hand & !BONUS_TURN) | if on { BONUS_TURN } else { 0 };
    }

    /// The rules back.
    #[inline]
    pub(crate) fn unpack(self) -> Rules {
        let on = |b: u8| self.flags & b != 0;
        Rules {
            farmers: on(FARMERS),
            gifts: on(GIFTS),
            hand: self.hand & HAND_MASK,
            hand_visible: on(HAND_VISIBLE),
            start_in_bag: on(START_IN_BAG),
            unplaceable: if on(RETURN) {
                Unplaceable::Return
            } else {
                Unplaceable::Aside
            },
            hole_bonus: on(HOLE_BONUS),
            final_incomplete: on(FINAL_INCOMPLETE),
            table: (self.table[0] != 0).then_some(Table {
                width: self.table[0],
                height: self.table[1],
            }),
            table_closes: on(TABLE_CLOSES),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_is_lossless_for_every_option() {
        let mut every = Rules::default();
        let mut all = vec![every];
        for (key, value) in [
            ("farmers", "false"),
            ("gifts", "true"),
            ("hand", "3"),
            ("hand_visible", "true"),
            ("start_in_bag", "true"),
            ("unplaceable", "return"),
            ("hole_bonus", "true"),
            ("final_incomplete", "false"),
            ("table", "13x5"),
            ("table_closes", "true"),
        ] {
            let mut one = Rules::default();
            one.set(key, value).unwrap();
            every.set(key, value).unwrap();
            all.extend([one, every]);
        }
        for r in all {
            let mut packed = PackedRules::pack(r);
            assert_eq!(packed.unpack(), r);
            packed.set_bonus_turn(true);
            assert!(packed.bonus_turn());
            assert_eq!(packed.unpack(), r, "the bonus bit leaks into the rules");
            packed.set_bonus_turn(false);
            assert_eq!(packed, PackedRules::pack(r));
        }
    }
}
