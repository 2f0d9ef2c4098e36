//! The Tamer's creatures as data: the stat blocks Fray plays (the `summoned-creature` features
//! of tamer.toml).

/// A creature's stat block (the `summoned-creature` features of tamer.toml).
pub struct Creature {
    /// Its id (the feature id; the `what` of its unit).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Hit points.
    pub hp: i32,
    /// Speed.
    pub speed: i32,
    /// The power that summons it.
    pub summon: &'static str,
    /// Its Command power.
    pub command: &'static str,
    /// What it may do in place of moving when the Tamer spends a Move Action: option id, label.
    pub instead: Option<(&'static str, &'static str)>,
    /// A territorial beast (the level-3 summons, L1767).
    pub territorial: bool,
    /// Its reach.
    pub reach: i32,
}

/// The creatures Fray plays.
pub const CREATURES: &[Creature] = &[
    Creature {
        id: "spitting-tree",
        name: "Spitting Tree",
        hp: 6,
        speed: 4,
        summon: "summon-spitting-tree",
        command: "tamer-spray",
        instead: Some(("regain", "regain 2 HP instead of moving")),
        territorial: false,
        reach: 1,
    },
    Creature {
        id: "flame-pig",
        name: "Flame Pig",
        hp: 5,
        speed: 6,
        summon: "summon-flame-pig",
        command: "goring-tusks",
        instead: Some(("scorch", "give every creature next to it Ongoing 1 instead of moving")),
        territorial: false,
        reach: 1,
    },
    Creature {
        id: "scalehound",
        name: "Scalehound",
        hp: 5,
        speed: 6,
        summon: "summon-scalehound",
        command: "hissing-howl",
        instead: Some(("resist", "gain Resist 1 until the end of your next turn instead of moving")),
        territorial: false,
        reach: 1,
    },
    Creature {
        id: "kerpoof",
        name: "Kerpoof",
        hp: 5,
        speed: 6,
        summon: "summon-kerpoof",
        command: "poof",
        instead: None,
        territorial: true,
        reach: 1,
    },
    Creature {
        id: "giraffape",
        name: "Giraffape",
        hp: 5,
        speed: 6,
        summon: "summon-giraffape",
        command: "sudden-eviction",
        instead: None,
        territorial: true,
        reach: 3,
    },
    Creature {
        id: "nettlekin",
        name: "Nettlekin",
        hp: 5,
        speed: 6,
        summon: "summon-nettlekin",
        command: "spine-catapult",
        instead: None,
        territorial: true,
        reach: 1,
    },
];
