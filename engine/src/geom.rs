//! Board geometry: positions, sides, field ports and rotations, in the
//! conventions of RULES.md §7 (x east, y north, rotation clockwise).

use std::fmt;
use std::str::FromStr;

/// A board cell. The start tile is at (0, 0); x grows east, y grows north.
///
/// With 72 tiles no coordinate can leave `-73..=73`, so `i8` is exact.
///
/// # Examples
/// ```
/// use engine::{Pos, Side};
///
/// let p = Pos::new(1, 0);
/// assert_eq!(p.step(Side::W), Pos::ORIGIN);
/// assert_eq!(p.to_string(), "(1, 0)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// East–west coordinate.
    pub x: i8,
    /// South–north coordinate.
    pub y: i8,
}

impl Pos {
    /// The origin, where the start tile lies.
    ///
    /// # Examples
    /// ```
    /// use engine::{Pos, Rules, Seat, State, Tile};
    ///
    /// let state = State::new(Rules::default(), 2, Seat(0));
    /// assert_eq!(state.board().at(Pos::ORIGIN).unwrap().tile, Tile::START);
    /// ```
    pub const ORIGIN: Pos = Pos { x: 0, y: 0 };

    /// A position from coordinates.
    ///
    /// # Examples
    /// ```
    /// use engine::Pos;
    ///
    /// let p = Pos::new(-2, 3);
    /// assert_eq!((p.x, p.y), (-2, 3));
    /// ```
    pub const fn new(x: i8, y: i8) -> Pos {
        Pos { x, y }
    }

    /// The neighbouring cell across `side`.
    ///
    /// # Examples
    /// ```
    /// use engine::{Pos, Side};
    ///
    /// assert_eq!(Pos::ORIGIN.step(Side::N), Pos::new(0, 1));
    /// assert_eq!(Pos::ORIGIN.step(Side::W), Pos::new(-1, 0));
    /// ```
    #[inline]
    pub const fn step(self, side: Side) -> Pos {
        let (dx, dy) = side.delta();
        Pos {
            x: self.x.wrapping_add(dx),
            y: self.y.wrapping_add(dy),
        }
    }

    /// Width of a row of the board's grid: the grid is one ring of
    /// [`Pos::CELLS`] cells read row-major, `x + ROW * y` modulo `CELLS`
    /// (see [`Pos::cell`]).
    pub(crate) const ROW: usize = 75;

    /// Cells of the board's grid: 2,813 = 38² + 37². Two positions share a
    /// cell exactly when they differ by a vector of the lattice spanned by
    /// (38, 37) and (−37, 38) (both satisfy `dx + 75 dy ≡ 0 (mod 2813)`,
    /// and the lattice has index 2,813), whose shortest vectors are 75
    /// steps long (`|dx| + |dy|`). The cells one game uses, its tiles and
    /// the cells around them, are at most 73 steps apart (a path through
    /// at most 72 tiles and one step out at each end), so they never share
    /// a cell; other positions may, and the board checks the position it
    /// finds (see [`crate::board`]). A square torus would need 74 × 74 =
    /// 5,476 cells for the same guarantee.
    pub(crate) const CELLS: usize = 2_813;

    /// The cell index on the board's grid (see [`Pos::CELLS`]):
    /// `x + ROW * y` wrapped around the whole grid, so stepping to a
    /// neighbour is adding one fixed offset modulo [`Pos::CELLS`]
    /// ([`Pos::cell_offset`]).
    #[inline]
    pub(crate) const fn cell(self) -> u16 {
        const C: i32 = Pos::CELLS as i32;
        // |x + ROW * y| ≤ 128 + 75 * 128 < 4 * CELLS.
        let linear = self.y as i32 * Pos::ROW as i32 + self.x as i32;
        ((linear + 4 * C) as u32 % C as u32) as u16
    }

    /// What to add (modulo [`Pos::CELLS`]) to a cell index to reach the
    /// cell `dx` across and `dy` up: `(p + (dx, dy)).cell()` is
    /// `(p.cell() + cell_offset(dx, dy)) % CELLS`.
    #[inline]
    pub(crate) const fn cell_offset(dx: i8, dy: i8) -> u16 {
        Pos::new(dx, dy).cell()
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// One of the four edges of a tile, in board orientation.
///
/// # Examples
/// ```
/// use engine::{Rotation, Side};
///
/// assert_eq!(Side::E.opposite(), Side::W);
/// assert_eq!(Side::E.delta(), (1, 0));
/// assert_eq!(Side::N.rotated(Rotation::new(3).unwrap()), Side::W);
/// assert_eq!(Side::ALL.map(|s| s.to_string()).concat(), "NESW");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Side {
    /// North (y + 1).
    N = 0,
    /// East (x + 1).
    E = 1,
    /// South (y − 1).
    S = 2,
    /// West (x − 1).
    W = 3,
}

impl Side {
    /// All sides, in the canonical order N, E, S, W.
    ///
    /// # Examples
    /// ```
    /// use engine::Side;
    ///
    /// assert!(Side::ALL.iter().enumerate().all(|(i, s)| s.index() == i));
    /// ```
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// A side from its index 0–3 (N, E, S, W); the index is taken modulo 4.
    ///
    /// # Examples
    /// ```
    /// use engine::Side;
    ///
    /// assert_eq!(Side::from_index(1), Side::E);
    /// assert_eq!(Side::from_index(5), Side::E);
    /// ```
    #[inline]
    pub const fn from_index(i: usize) -> Side {
        Side::ALL[i & 3]
    }

    /// The index 0–3 of this side.
    ///
    /// # Examples
    /// ```
    /// use engine::Side;
    ///
    /// assert_eq!(Side::S.index(), 2);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The facing side of the neighbour across this side.
    ///
    /// # Examples
    /// ```
    /// use engine::Side;
    ///
    /// assert_eq!(Side::N.opposite(), Side::S);
    /// assert!(Side::ALL.iter().all(|s| s.opposite().opposite() == *s));
    /// ```
    #[inline]
    pub const fn opposite(self) -> Side {
        Side::from_index(self as usize + 2)
    }

    /// Coordinate change to the neighbour across this side.
    ///
    /// # Examples
    /// ```
    /// use engine::Side;
    ///
    /// assert_eq!(Side::S.delta(), (0, -1));
    /// ```
    #[inline]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Side::N => (0, 1),
            Side::E => (1, 0),
            Side::S => (0, -1),
            Side::W => (-1, 0),
        }
    }

    /// This side after `rot` clockwise quarter turns of the tile.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rotation, Side};
    ///
    /// let half = Rotation::new(2).unwrap();
    /// assert_eq!(Side::E.rotated(half), Side::W);
    /// ```
    #[inline]
    pub const fn rotated(self, rot: Rotation) -> Side {
        Side::from_index(self as usize + rot.0 as usize)
    }

    /// The two field ports on this side (west/north half first, as in the
    /// clockwise port order).
    ///
    /// # Examples
    /// ```
    /// use engine::{Port, Side};
    ///
    /// assert_eq!(Side::N.ports(), [Port::Nnw, Port::Nne]);
    /// assert_eq!(Side::W.ports(), [Port::Wsw, Port::Wnw]);
    /// ```
    #[inline]
    pub const fn ports(self) -> [Port; 2] {
        [
            Port::from_index(2 * self as usize),
            Port::from_index(2 * self as usize + 1),
        ]
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(["N", "E", "S", "W"][*self as usize])
    }
}

/// A half-edge a field can touch: the eight ports of RULES.md §6, in
/// clockwise order starting at the west half of the north edge.
///
/// # Examples
/// ```
/// use engine::{Port, Rotation, Side};
///
/// assert_eq!(Port::Nne.to_string(), "NNE");
/// assert_eq!(Port::Nne.side(), Side::N);
/// assert_eq!(Port::Nne.facing(), Port::Sse); // the tile to the north
/// assert_eq!(Port::Nne.rotated(Rotation::new(1).unwrap()), Port::Ese);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Port {
    /// North edge, west half.
    Nnw = 0,
    /// North edge, east half.
    Nne = 1,
    /// East edge, north half.
    Ene = 2,
    /// East edge, south half.
    Ese = 3,
    /// South edge, east half.
    Sse = 4,
    /// South edge, west half.
    Ssw = 5,
    /// West edge, south half.
    Wsw = 6,
    /// West edge, north half.
    Wnw = 7,
}

impl Port {
    /// All ports in canonical order.
    ///
    /// # Examples
    /// ```
    /// use engine::Port;
    ///
    /// assert!(Port::ALL.iter().enumerate().all(|(i, p)| p.index() == i));
    /// ```
    pub const ALL: [Port; 8] = [
        Port::Nnw,
        Port::Nne,
        Port::Ene,
        Port::Ese,
        Port::Sse,
        Port::Ssw,
        Port::Wsw,
        Port::Wnw,
    ];

    /// The names of the ports, in canonical order.
    ///
    /// # Examples
    /// ```
    /// use engine::Port;
    ///
    /// assert!(Port::ALL.iter().all(|p| p.to_string() == Port::NAMES[p.index()]));
    /// ```
    pub const NAMES: [&'static str; 8] = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"];

    /// A port from its index 0–7 (taken modulo 8).
    ///
    /// # Examples
    /// ```
    /// use engine::Port;
    ///
    /// assert_eq!(Port::from_index(7), Port::Wnw);
    /// assert_eq!(Port::from_index(8), Port::Nnw);
    /// ```
    #[inline]
    pub const fn from_index(i: usize) -> Port {
        Port::ALL[i & 7]
    }

    /// The index 0–7 of this port.
    ///
    /// # Examples
    /// ```
    /// use engine::Port;
    ///
    /// assert_eq!(Port::Ese.index(), 3);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side this port lies on.
    ///
    /// # Examples
    /// ```
    /// use engine::{Port, Side};
    ///
    /// assert_eq!(Port::Wsw.side(), Side::W);
    /// ```
    #[inline]
    pub const fn side(self) -> Side {
        Side::from_index(self as usize / 2)
    }

    /// The port of the neighbouring tile that this port meets: NNW meets
    /// the SSW port of the tile to the north, ENE meets WNW, and so on.
    ///
    /// # Examples
    /// ```
    /// use engine::Port;
    ///
    /// assert_eq!(Port::Ene.facing(), Port::Wnw);
    /// assert!(Port::ALL.iter().all(|p| p.facing().facing() == *p));
    /// ```
    #[inline]
    pub const fn facing(self) -> Port {
        let side = self as usize / 2;
        let half = self as usize & 1;
        Port::from_index(2 * ((side + 2) & 3) + (1 - half))
    }

    /// This port after `rot` clockwise quarter turns of the tile.
    ///
    /// # Examples
    /// ```
    /// use engine::{Port, Rotation};
    ///
    /// assert_eq!(Port::Nnw.rotated(Rotation::new(2).unwrap()), Port::Sse);
    /// ```
    #[inline]
    pub const fn rotated(self, rot: Rotation) -> Port {
        Port::from_index(self as usize + 2 * rot.0 as usize)
    }
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Port::NAMES[*self as usize])
    }
}

/// Quarter turns clockwise applied to a tile's canonical orientation (0–3).
/// With rotation 1 the canonical north edge faces east.
///
/// # Examples
/// ```
/// use engine::{Rotation, Side};
///
/// let r = Rotation::new(1).unwrap(); // a quarter turn clockwise
/// assert_eq!(Side::N.rotated(r), Side::E);
/// assert_eq!(Rotation::new(4), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rotation(u8);

impl Rotation {
    /// All four rotations.
    ///
    /// # Examples
    /// ```
    /// use engine::Rotation;
    ///
    /// let turns: Vec<u8> = Rotation::ALL.iter().map(|r| r.quarter_turns()).collect();
    /// assert_eq!(turns, [0, 1, 2, 3]);
    /// ```
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// A rotation from a number of quarter turns, if it is 0–3.
    ///
    /// # Examples
    /// ```
    /// use engine::Rotation;
    ///
    /// assert_eq!(Rotation::new(0), Some(Rotation::default()));
    /// assert!(Rotation::new(4).is_none());
    /// ```
    pub const fn new(quarter_turns: u8) -> Option<Rotation> {
        if quarter_turns < 4 {
            Some(Rotation(quarter_turns))
        } else {
            None
        }
    }

    /// The number of clockwise quarter turns, 0–3.
    ///
    /// # Examples
    /// ```
    /// use engine::Rotation;
    ///
    /// assert_eq!(Rotation::new(3).unwrap().quarter_turns(), 3);
    /// ```
    #[inline]
    pub const fn quarter_turns(self) -> u8 {
        self.0
    }

    /// The rotation that undoes this one.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rotation, Side};
    ///
    /// let r = Rotation::new(1).unwrap();
    /// assert_eq!(r.inverse(), Rotation::new(3).unwrap());
    /// assert_eq!(Side::N.rotated(r).rotated(r.inverse()), Side::N);
    /// ```
    #[inline]
    pub const fn inverse(self) -> Rotation {
        Rotation((4 - self.0) & 3)
    }
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A place for a meeple on a placed tile, named in board orientation
/// (RULES.md §7): the road or city segment reaching an edge, the
/// monastery, or a field port.
///
/// # Examples
/// ```
/// use engine::{Location, Port, Side};
///
/// assert_eq!("N".parse::<Location>(), Ok(Location::Edge(Side::N)));
/// assert_eq!("C".parse::<Location>(), Ok(Location::Monastery));
/// assert_eq!("NNE".parse::<Location>(), Ok(Location::Field(Port::ALL[1])));
/// assert!("X".parse::<Location>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Location {
    /// The road or city segment reaching the middle of this edge.
    Edge(Side),
    /// The monastery in the middle of the tile (`C`).
    Monastery,
    /// The field touching this port.
    Field(Port),
}

impl Location {
    /// Every location name, in canonical order (edges, monastery, ports).
    ///
    /// # Examples
    /// ```
    /// use engine::Location;
    ///
    /// for loc in Location::ALL {
    ///     assert_eq!(loc.to_string().parse::<Location>(), Ok(loc));
    /// }
    /// ```
    pub const ALL: [Location; 13] = [
        Location::Edge(Side::N),
        Location::Edge(Side::E),
        Location::Edge(Side::S),
        Location::Edge(Side::W),
        Location::Monastery,
        Location::Field(Port::Nnw),
        Location::Field(Port::Nne),
        Location::Field(Port::Ene),
        Location::Field(Port::Ese),
        Location::Field(Port::Sse),
        Location::Field(Port::Ssw),
        Location::Field(Port::Wsw),
        Location::Field(Port::Wnw),
    ];
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Edge(side) => side.fmt(f),
            Location::Monastery => f.write_str("C"),
            Location::Field(port) => port.fmt(f),
        }
    }
}

/// A location name that is not one of `N E S W C` or the eight ports.
///
/// # Examples
/// ```
/// use engine::Location;
///
/// let err = "north".parse::<Location>().unwrap_err();
/// assert_eq!(err.0, "north");
/// assert!(err.to_string().starts_with("unknown location \"north\""));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLocationError(pub String);

impl fmt::Display for ParseLocationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown location {:?} (expected N, E, S, W, C or a port such as NNW)",
            self.0
        )
    }
}

impl std::error::Error for ParseLocationError {}

impl FromStr for Location {
    type Err = ParseLocationError;

    fn from_str(s: &str) -> Result<Location, ParseLocationError> {
        Location::ALL
            .into_iter()
            .find(|loc| loc.to_string() == s)
            .ok_or_else(|| ParseLocationError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_within_reach_never_alias() {
        // No two positions at most 73 steps apart share a cell: no
        // difference vector that short folds onto cell 0.
        let zero = Pos::ORIGIN.cell();
        for dx in -73i8..=73 {
            let reach = 73 - dx.unsigned_abs() as i8;
            for dy in -reach..=reach {
                if (dx, dy) != (0, 0) {
                    assert_ne!(Pos::new(dx, dy).cell(), zero, "({dx}, {dy}) aliases");
                }
            }
        }
        // The windows a straight line of 72 tiles with its neighbours spans
        // map one-to-one.
        for (w, h) in [(74, 3), (3, 74)] {
            let mut seen = vec![false; Pos::CELLS];
            for x in 0..w {
                for y in 0..h {
                    let c = Pos::new(x - 1, y - 1).cell() as usize;
                    assert!(!seen[c], "({x}, {y}) aliases");
                    seen[c] = true;
                }
            }
        }
        // Far positions fold: the lattice's shortest vectors, 75 steps.
        for (dx, dy) in [(38, 37), (-37, 38), (75, -1), (1, 75)] {
            assert_eq!(Pos::new(dx, dy).cell(), zero);
        }
    }

    #[test]
    fn cell_offsets_step_to_the_neighbour() {
        for (x, y) in [(0, 0), (-1, -1), (39, -40), (-73, 72), (73, 0), (0, -74)] {
            let p = Pos::new(x, y);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let q = Pos::new(x.wrapping_add(dx), y.wrapping_add(dy));
                    let stepped = (p.cell() + Pos::cell_offset(dx, dy)) as usize % Pos::CELLS;
                    assert_eq!(stepped, q.cell() as usize, "({x}, {y}) + ({dx}, {dy})");
                }
            }
        }
    }

    #[test]
    fn facing_ports_match_the_rules_text() {
        assert_eq!(Port::Nnw.facing(), Port::Ssw);
        assert_eq!(Port::Nne.facing(), Port::Sse);
        assert_eq!(Port::Ene.facing(), Port::Wnw);
        assert_eq!(Port::Ese.facing(), Port::Wsw);
        for p in Port::ALL {
            assert_eq!(p.facing().facing(), p);
            assert_eq!(p.facing().side(), p.side().opposite());
        }
    }

    #[test]
    fn rotation_one_turns_north_to_east() {
        let r1 = Rotation::new(1).unwrap();
        assert_eq!(Side::N.rotated(r1), Side::E);
        assert_eq!(Side::W.rotated(r1), Side::N);
        assert_eq!(Port::Nnw.rotated(r1), Port::Ene);
        assert_eq!(Port::Wnw.rotated(r1), Port::Nne);
        assert_eq!(Rotation::new(4), None);
    }

    #[test]
    fn locations_parse_their_own_names() {
        for loc in Location::ALL {
            assert_eq!(loc.to_string().parse::<Location>(), Ok(loc));
        }
        assert!("X".parse::<Location>().is_err());
        assert!("nnw".parse::<Location>().is_err());
    }
}
