//! The arena: terrain (K-TER), cover squares (K-COV), pedestals (K-ORB), the Dungeon with its
//! spawn squares and exits (K-DUN), and portals (K-TER-4). Read from rows of characters.

use fray_core::grid::{Grid, Pos};
use serde::{Deserialize, Serialize};

/// What a square is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    /// Open ground.
    Open,
    /// Walls: impassable unless Phasing; Full Cover (K-TER-1).
    Blocking,
    /// Costs 2 squares to enter (K-TER-3).
    Difficult,
    /// Damages whoever enters it or starts a turn in it, once per round (K-TER-2).
    Damaging,
    /// Difficult for non-aquatic creatures, Disadvantage on attacks while in it (K-TER-6).
    Water,
    /// Boxes and chest-high walls: take-cover half-planes, Difficult to cross (K-COV-4, K-COV-6).
    LowCover,
    /// Pillars and trees: take-cover plus blocks lines (K-COV-5). Not enterable.
    FullCover,
    /// Fog: creatures in it are Concealed (K-CONC-1).
    Fog,
    /// Off the arena: nobody enters it, it blocks nothing.
    Edge,
    /// A pit: leaving costs one extra square; 1 damage when forced into it (K-TER-8).
    Pit,
    /// A Dungeon exit: the button beside it lets a creature out (K-DUN-6). Not enterable.
    Exit,
    /// A portal end: entering it puts you beside the other end (K-TER-4).
    Portal,
    /// A pedestal: Low Cover (K-ORB-3), holds orbs.
    Pedestal,
    /// Slick ground: entering it means a save or falling Prone (K-TER-8).
    Slick,
    /// Gas (a Terrain Artist's, L2099): creatures wholly in it are Concealed from enemies more
    /// than 3 squares away.
    Gas,
    /// A Boost Square (L2107) of strength 1, or 2 from level 4: Ward to whoever ends a turn on
    /// it, extra melee damage to whoever stands on it, and no movement spent walking onto it.
    Boost(u8),
    /// A Chuck's glowing Block (L2558-2566): Low Cover like a box; a Chuck can carry or throw
    /// it, leaving open ground.
    Block,
}

impl Terrain {
    /// Whether a creature can stand on or move into it (without Phasing).
    pub fn enterable(self) -> bool {
        !matches!(self, Terrain::Blocking | Terrain::FullCover | Terrain::Edge | Terrain::Exit)
    }
    /// Whether it blocks lines of sight and shots (K-COV-5, K-COV-13).
    pub fn blocks_sight(self) -> bool {
        matches!(self, Terrain::Blocking | Terrain::FullCover | Terrain::Exit)
    }
    /// Whether a creature pressed against it can take cover (K-COV-3).
    pub fn is_low_cover(self) -> bool {
        matches!(self, Terrain::LowCover | Terrain::Pedestal | Terrain::Block)
    }
    /// Whether it counts as Difficult Terrain to enter (K-TER-3, K-COV-6, K-TER-6).
    pub fn is_difficult(self) -> bool {
        matches!(self, Terrain::Difficult | Terrain::LowCover | Terrain::Pedestal | Terrain::Water | Terrain::Block)
    }
    /// The map character that draws it.
    pub fn glyph(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::Blocking => '#',
            Terrain::Difficult => '~',
            Terrain::Damaging => '!',
            Terrain::Water => 'w',
            Terrain::LowCover => 'l',
            Terrain::FullCover => 'F',
            Terrain::Fog => 'o',
            Terrain::Edge => 'e',
            Terrain::Pit => 'p',
            Terrain::Exit => 'X',
            Terrain::Portal => '@',
            Terrain::Pedestal => 'P',
            Terrain::Slick => 's',
            Terrain::Gas => 'g',
            Terrain::Boost(_) => 'b',
            Terrain::Block => 'k',
        }
    }
    /// Parses a terrain name as a `[map.legend]` table writes it.
    pub fn parse(name: &str) -> Option<Terrain> {
        Some(match name.trim().to_lowercase().replace([' ', '_'], "-").as_str() {
            "open" | "regular" => Terrain::Open,
            "blocking" | "wall" => Terrain::Blocking,
            "difficult" | "rubble" => Terrain::Difficult,
            "damaging" => Terrain::Damaging,
            "water" => Terrain::Water,
            "low-cover" | "low" => Terrain::LowCover,
            "full-cover" | "full" | "pillar" => Terrain::FullCover,
            "fog" | "concealing" => Terrain::Fog,
            "edge" => Terrain::Edge,
            "pit" | "hazard" => Terrain::Pit,
            "slick" | "ice" => Terrain::Slick,
            "gas" => Terrain::Gas,
            "boost" => Terrain::Boost(1),
            "block" => Terrain::Block,
            _ => return None,
        })
    }
}

/// A side in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The red team.
    Red,
    /// The blue team.
    Blue,
    /// Neutral: creeps and neutral orbs.
    Neutral,
}

impl Side {
    /// Lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Blue => "blue",
            Side::Neutral => "neutral",
        }
    }
    /// Parses a side name (`home` is red, `away` is blue).
    pub fn parse(s: &str) -> Option<Side> {
        match s.trim().to_lowercase().as_str() {
            "red" | "home" => Some(Side::Red),
            "blue" | "away" => Some(Side::Blue),
            "neutral" | "creeps" => Some(Side::Neutral),
            _ => None,
        }
    }
    /// Index into per-team arrays (red 0, blue 1), or `None` for neutral.
    pub fn team(self) -> Option<usize> {
        match self {
            Side::Red => Some(0),
            Side::Blue => Some(1),
            Side::Neutral => None,
        }
    }
    /// The opposing team.
    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
            Side::Neutral => Side::Neutral,
        }
    }
}

/// A pedestal: where a team's orbs start and where it dunks (K-ORB-1, K-ORB-7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pedestal {
    /// Id used in commands (`red-1`, `n-2`).
    pub id: String,
    /// Its square.
    pub at: Pos,
    /// Whose pedestal it is.
    pub side: Side,
}

/// A portal between two squares (K-TER-4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Portal {
    /// One end.
    pub a: Pos,
    /// The other end.
    pub b: Pos,
    /// Whether only `a` can be entered.
    #[serde(default)]
    pub one_way: bool,
    /// The only side allowed through, if limited.
    #[serde(default)]
    pub side: Option<Side>,
}

/// The playing field.
#[derive(Clone, Debug, PartialEq)]
pub struct Arena {
    /// Terrain of every square.
    pub terrain: Grid<Terrain>,
    /// Which squares are inside the Dungeon (K-DUN).
    pub dungeon: Grid<bool>,
    /// Pedestals.
    pub pedestals: Vec<Pedestal>,
    /// Spawn squares in the Dungeon, red then blue (K-DUN-2).
    pub spawns: [Vec<Pos>; 2],
    /// Dungeon exits (K-DUN-6).
    pub exits: Vec<Pos>,
    /// Portals.
    pub portals: Vec<Portal>,
    /// Damage dealt by Damaging Terrain (the rulebook leaves it to each map).
    pub terrain_damage: i32,
    /// Orbs that start on pedestals: (pedestal index, colour).
    pub starting_orbs: Vec<(usize, Side)>,
    /// Each team's start area (K-SET-2), red then blue: where its athletes are set up.
    pub starts: [Vec<Pos>; 2],
    /// The Throne (K-CONC-9, K-SCO-10), if the map has one.
    pub throne: Option<Pos>,
    /// The banishing ray's seat (L2478), if the map has one.
    pub ray_seat: Option<Pos>,
    /// The squares the banishing ray reaches (L2478).
    pub ray_squares: Vec<Pos>,
}

/// A problem in a map, with the row and column where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    /// 0-based row, if the problem is at one square.
    pub row: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl Arena {
    /// Builds an arena from rows of characters. Legend: the shared scenario legend (`.` open,
    /// `#` blocking, `~` difficult, `!` damaging, `w` water, `l` low cover, `F` full cover,
    /// `o` fog, `r` rubble, `e` edge, `p` pit, `t` trap) plus Kazzam's own: `R`, `B` a red or
    /// blue pedestal with an orb of its colour, `N` a neutral pedestal with a neutral orb,
    /// `Q`/`C` an empty red/blue pedestal, `s` slick ground, `D` Dungeon floor, `1`/`2` a red/blue spawn square,
    /// `X` a Dungeon exit, `H`/`A` a square of the red/blue start area, `T` the Throne, `Z` the
    /// banishing ray's seat and `z` a square it reaches. `extra` maps further characters to terrain names.
    pub fn parse(rows: &[String], extra: &[(char, Terrain)]) -> Result<Arena, Vec<MapError>> {
        let height = rows.len() as i32;
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as i32;
        let mut errors = Vec::new();
        if height == 0 || width == 0 {
            errors.push(MapError { row: None, message: "the map has no squares: give at least one row".into() });
            return Err(errors);
        }
        let mut a = Arena {
            terrain: Grid::new(width, height, Terrain::Edge),
            dungeon: Grid::new(width, height, false),
            pedestals: Vec::new(),
            spawns: [Vec::new(), Vec::new()],
            exits: Vec::new(),
            portals: Vec::new(),
            terrain_damage: 1,
            starting_orbs: Vec::new(),
            starts: [Vec::new(), Vec::new()],
            throne: None,
            ray_seat: None,
            ray_squares: Vec::new(),
        };
        let mut counters = [0usize; 3];
        for (y, row) in rows.iter().enumerate() {
            if row.chars().count() as i32 != width {
                errors.push(MapError {
                    row: Some(y),
                    message: format!(
                        "row {y} has {} squares but the widest row has {width}; pad it with 'e' (edge)",
                        row.chars().count()
                    ),
                });
            }
            for (x, c) in row.chars().enumerate() {
                let p = Pos::new(x as i32, y as i32);
                let mut ped = |side: Side, orb: bool, a: &mut Arena| {
                    let i = side.team().unwrap_or(2);
                    counters[i] += 1;
                    let prefix = if side == Side::Neutral { "n" } else { side.name() };
                    a.pedestals.push(Pedestal { id: format!("{prefix}-{}", counters[i]), at: p, side });
                    if orb {
                        a.starting_orbs.push((a.pedestals.len() - 1, side));
                    }
                    Terrain::Pedestal
                };
                let t = match c {
                    '.' => Terrain::Open,
                    '#' => Terrain::Blocking,
                    '~' | 'r' => Terrain::Difficult,
                    '!' | 't' => Terrain::Damaging,
                    'w' => Terrain::Water,
                    'l' => Terrain::LowCover,
                    'F' => Terrain::FullCover,
                    'o' => Terrain::Fog,
                    'e' => Terrain::Edge,
                    'p' => Terrain::Pit,
                    's' => Terrain::Slick,
                    'g' => Terrain::Gas,
                    'b' => Terrain::Boost(1),
                    'k' => Terrain::Block,
                    'R' => ped(Side::Red, true, &mut a),
                    'B' => ped(Side::Blue, true, &mut a),
                    'N' => ped(Side::Neutral, true, &mut a),
                    'Q' => ped(Side::Red, false, &mut a),
                    'C' => ped(Side::Blue, false, &mut a),
                    'D' | '1' | '2' => {
                        *a.dungeon.get_mut(p).unwrap() = true;
                        if c == '1' {
                            a.spawns[0].push(p);
                        } else if c == '2' {
                            a.spawns[1].push(p);
                        }
                        Terrain::Open
                    }
                    'X' => {
                        a.exits.push(p);
                        Terrain::Exit
                    }
                    // Start areas (K-SET-2), the Throne (K-CONC-9), the banishing ray (L2478):
                    // open ground the map remembers.
                    'H' | 'A' => {
                        a.starts[usize::from(c == 'A')].push(p);
                        Terrain::Open
                    }
                    'T' => {
                        if a.throne.replace(p).is_some() {
                            errors.push(MapError {
                                row: Some(y),
                                message: format!("row {y}, column {x}: a second Throne 'T'; a map has at most one"),
                            });
                        }
                        Terrain::Open
                    }
                    'Z' => {
                        if a.ray_seat.replace(p).is_some() {
                            errors.push(MapError {
                                row: Some(y),
                                message: format!(
                                    "row {y}, column {x}: a second banishing-ray seat 'Z'; a map has at most one"
                                ),
                            });
                        }
                        Terrain::Open
                    }
                    'z' => {
                        a.ray_squares.push(p);
                        Terrain::Open
                    }
                    other => match extra.iter().find(|(k, _)| *k == other) {
                        Some((_, t)) => *t,
                        None => {
                            errors.push(MapError {
                                row: Some(y),
                                message: format!(
                                    "row {y}, column {x}: unknown map character {other:?}; add it to [map.legend]"
                                ),
                            });
                            Terrain::Open
                        }
                    },
                };
                *a.terrain.get_mut(p).unwrap() = t;
            }
        }
        if errors.is_empty() { Ok(a) } else { Err(errors) }
    }

    /// Width and height in squares.
    pub fn size(&self) -> (i32, i32) {
        (self.terrain.width(), self.terrain.height())
    }
    /// Terrain at `p` (`Edge` off the grid).
    pub fn at(&self, p: Pos) -> Terrain {
        self.terrain.get(p).copied().unwrap_or(Terrain::Edge)
    }
    /// Whether `p` is inside the Dungeon.
    pub fn in_dungeon(&self, p: Pos) -> bool {
        self.dungeon.get(p).copied().unwrap_or(false)
    }
    /// Whether a footprint touches the Dungeon.
    pub fn footprint_in_dungeon(&self, at: Pos, size: i32) -> bool {
        fray_core::grid::footprint(at, size).any(|p| self.in_dungeon(p))
    }
    /// The rows of characters that draw the terrain.
    pub fn rows(&self) -> Vec<String> {
        (0..self.terrain.height())
            .map(|y| {
                (0..self.terrain.width())
                    .map(|x| {
                        let p = Pos::new(x, y);
                        let t = self.at(p);
                        if t == Terrain::Open && self.throne == Some(p) {
                            'T'
                        } else if t == Terrain::Open && self.ray_seat == Some(p) {
                            'Z'
                        } else if t == Terrain::Open && self.ray_squares.contains(&p) {
                            'z'
                        } else if t == Terrain::Open && self.in_dungeon(p) {
                            if self.spawns[0].contains(&p) {
                                '1'
                            } else if self.spawns[1].contains(&p) {
                                '2'
                            } else {
                                'D'
                            }
                        } else if t == Terrain::Pedestal {
                            match self.pedestals.iter().find(|pd| pd.at == p).map(|pd| pd.side) {
                                Some(Side::Red) => 'R',
                                Some(Side::Blue) => 'B',
                                _ => 'N',
                            }
                        } else {
                            t.glyph()
                        }
                    })
                    .collect()
            })
            .collect()
    }
    /// The portal end leading on from `p` when `p` is entered by a creature of `side`,
    /// if `p` is an enterable portal end.
    pub fn portal_exit(&self, p: Pos, side: Side) -> Option<Pos> {
        self.portals.iter().find_map(|pt| {
            if pt.side.is_some_and(|s| s != side) {
                return None;
            }
            if pt.a == p {
                Some(pt.b)
            } else if pt.b == p && !pt.one_way {
                Some(pt.a)
            } else {
                None
            }
        })
    }
}
