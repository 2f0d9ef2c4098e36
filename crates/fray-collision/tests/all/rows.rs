// Generated once from the guide's own table rows (001_575e22e9562b5e68.txt), independently of the
// checklist the content was typed from; garbled rows are read as ../shared/rules/collision.md §3.9 says.

/// (race, value section, core stats Def to Move, guide line, weapon stats Att/Str/S-Pow, reach, effects, points)
pub type RaceRow = (&'static str, &'static str, [i32; 7], u32, [i32; 3], i32, &'static [&'static str], u32);
pub const RACES: &[RaceRow] = &[
    ("Halfling", "Universal", [7, 4, 2, 3, 2, 1, 3], 154, [2, 0, 1], 0, &["Skill+1"], 18),
    ("Human", "Universal", [6, 4, 3, 3, 2, 1, 3], 155, [1, 1, 1], 0, &["Skill+1"], 20),
    ("Great Folk", "Universal", [5, 4, 4, 3, 2, 1, 3], 156, [0, 2, 1], 1, &["Skill+1", "Massive"], 24),
    ("Fae", "Chivalry", [7, 4, 2, 3, 3, 0, 3], 257, [3, 0, 1], 0, &["Levitating Move"], 22),
    ("Angel", "Chivalry", [6, 4, 3, 3, 3, 2, 3], 258, [1, 1, 1], 0, &["Levitating Move"], 25),
    ("Archangel", "Chivalry", [5, 4, 4, 3, 3, 2, 3], 259, [0, 2, 1], 1, &["Levitating Move", "Massive"], 28),
    ("Wisp", "Diplomacy", [7, 4, 2, 3, 3, 0, 3], 332, [1, 0, 1], 0, &["Serenity"], 22),
    ("White Elf", "Diplomacy", [7, 4, 2, 3, 2, 2, 3], 333, [2, 0, 2], 0, &["Serenity"], 25),
    ("Elemental", "Diplomacy", [5, 4, 3, 3, 2, 2, 3], 334, [1, 2, 1], 1, &["Serenity", "Massive"], 28),
    ("Goblin", "Mysticism", [8, 4, 2, 3, 2, 0, 3], 414, [2, 1, 1], 0, &["Skittish"], 17),
    ("Orc", "Mysticism", [6, 4, 4, 3, 2, 0, 3], 415, [1, 2, 1], 0, &["Skittish"], 20),
    ("Ogre", "Mysticism", [5, 4, 5, 3, 2, 0, 2], 416, [0, 3, 1], 1, &["Skittish", "Massive"], 23),
    ("Dwarf", "Liberty", [6, 5, 3, 3, 2, 1, 2], 490, [1, 1, 1], 0, &["Dauntless"], 17),
    ("Construct", "Liberty", [5, 5, 3, 3, 2, 1, 2], 491, [1, 2, 1], 0, &["Dauntless"], 20),
    ("Juggernaut", "Liberty", [4, 5, 4, 3, 2, 1, 2], 492, [0, 3, 1], 1, &["Dauntless", "Massive"], 23),
    ("Thrall", "Brutality", [7, 5, 3, 3, 1, 0, 2], 570, [2, 0, 0], 0, &["Resist Elements 2"], 20),
    ("Demon", "Brutality", [6, 5, 3, 3, 2, 1, 3], 571, [1, 1, 0], 0, &["Resist Elements 2"], 24),
    ("Devil", "Brutality", [5, 5, 4, 3, 2, 1, 3], 572, [0, 2, 1], 1, &["Resist Elements 2", "Massive"], 30),
    ("Imp", "Conquest", [8, 4, 2, 3, 2, 1, 4], 645, [1, 0, 1], 0, &["Vicious"], 22),
    ("Red Elf", "Conquest", [7, 4, 2, 3, 2, 2, 4], 646, [2, 2, 0], 0, &["Vicious"], 25),
    ("Chimera", "Conquest", [6, 4, 3, 3, 2, 0, 4], 647, [1, 3, 1], 1, &["Vicious", "Massive"], 30),
    ("Shambler", "Sorcery", [6, 5, 2, 3, 1, 0, 2], 717, [2, 0, 1], 0, &["Immune to Slay"], 22),
    ("Preserved", "Sorcery", [5, 5, 3, 3, 2, 1, 2], 718, [1, 1, 1], 0, &["Immune to Slay"], 25),
    ("Undead Construct", "Sorcery", [4, 5, 4, 3, 2, 0, 2], 719, [0, 2, 1], 1, &["Immune to Slay", "Massive"], 30),
    ("Critter", "Savagery", [8, 4, 2, 3, 2, 0, 4], 795, [1, 0, 0], 0, &["Leaping Move"], 16),
    ("Beast", "Savagery", [7, 4, 3, 3, 2, 1, 4], 796, [1, 1, 0], 0, &["Leaping Move"], 22),
    ("Brute", "Savagery", [6, 4, 4, 3, 2, 1, 4], 797, [1, 2, 0], 1, &["Leaping Move", "Massive"], 28),
];

/// (tarot, [(value section, Def/Tuf/End/Mana/Comm, guide line, Move/Att/Str/S-Pow, skills, restrict, points)])
pub type TarotPrinting = (&'static str, [i32; 5], u32, [i32; 4], u8, &'static str, u32);
pub const TAROTS: &[(&str, &[TarotPrinting])] = &[
    ("2 of Swords", &[("Universal", [0, 1, 0, 0, 0], 169, [0, 1, 0, 0], 1, "", 0)]),
    ("3 of Swords", &[("Universal", [0, 1, 0, 0, 0], 170, [0, 1, 1, 0], 1, "", 3)]),
    ("2 of Cups", &[("Universal", [0, 0, 0, 1, 1], 171, [0, 0, 0, 0], 1, "", 0)]),
    ("3 of Cups", &[("Universal", [1, 0, 0, 2, 1], 172, [0, 0, 0, 0], 1, "", 3)]),
    ("2 of Rods", &[("Universal", [0, 0, 0, 1, 0], 173, [0, 0, 0, 1], 1, "", 0)]),
    ("3 of Rods", &[("Universal", [0, 0, 0, 2, 0], 174, [0, 1, 0, 1], 1, "", 3)]),
    ("2 of Coins", &[("Universal", [1, 0, 0, 0, 0], 175, [0, 1, 0, 0], 1, "", 0)]),
    ("3 of Coins", &[("Universal", [1, 0, 0, 1, 0], 176, [1, 1, 0, 0], 1, "", 3)]),
    (
        "4 of Swords",
        &[
            ("Chivalry", [0, 1, 0, 1, 1], 270, [0, 1, 1, 0], 2, "", 7),
            ("Brutality", [0, 1, 0, 1, 1], 583, [0, 1, 1, 0], 2, "", 7),
        ],
    ),
    (
        "5 of Swords",
        &[
            ("Chivalry", [0, 1, 1, 1, 1], 271, [0, 1, 1, 0], 2, "", 17),
            ("Brutality", [0, 1, 1, 1, 1], 584, [0, 1, 1, 0], 2, "", 17),
        ],
    ),
    (
        "6 of Swords",
        &[
            ("Chivalry", [1, 1, 1, 1, 1], 272, [1, 1, 1, 0], 2, "", 21),
            ("Brutality", [1, 1, 1, 1, 1], 585, [1, 1, 1, 0], 2, "", 21),
        ],
    ),
    (
        "7 of Swords",
        &[
            ("Chivalry", [1, 2, 1, 1, 1], 273, [1, 1, 1, 0], 3, "", 25),
            ("Brutality", [1, 2, 1, 1, 1], 586, [1, 1, 1, 0], 3, "", 25),
        ],
    ),
    (
        "8 of Swords",
        &[
            ("Chivalry", [1, 2, 1, 2, 1], 274, [1, 1, 1, 1], 3, "250+", 28),
            ("Brutality", [1, 2, 1, 2, 1], 587, [1, 1, 1, 1], 3, "250+", 28),
        ],
    ),
    (
        "9 of Swords",
        &[
            ("Chivalry", [1, 3, 1, 2, 2], 275, [1, 1, 1, 1], 3, "250+", 36),
            ("Brutality", [1, 3, 1, 2, 2], 588, [1, 1, 1, 1], 3, "250+", 36),
        ],
    ),
    (
        "10 of Swords",
        &[
            ("Chivalry", [2, 3, 1, 2, 2], 276, [1, 2, 1, 1], 4, "250+", 42),
            ("Brutality", [2, 3, 1, 2, 2], 589, [1, 2, 1, 1], 4, "250+", 42),
        ],
    ),
    (
        "Ace of Swords",
        &[
            ("Chivalry", [2, 4, 1, 3, 2], 277, [1, 2, 1, 1], 4, "250+", 48),
            ("Brutality", [2, 4, 1, 3, 2], 590, [1, 2, 1, 1], 4, "250+", 48),
        ],
    ),
    (
        "4 of Cups",
        &[
            ("Diplomacy", [1, 0, 0, 2, 2], 347, [0, 0, 0, 0], 2, "", 7),
            ("Conquest", [1, 0, 0, 2, 2], 661, [0, 0, 0, 0], 2, "", 7),
        ],
    ),
    (
        "5 of Cups",
        &[
            ("Diplomacy", [1, 0, 1, 2, 2], 348, [0, 0, 0, 0], 2, "", 17),
            ("Conquest", [1, 0, 1, 2, 2], 662, [0, 0, 0, 0], 2, "", 17),
        ],
    ),
    (
        "6 of Cups",
        &[
            ("Diplomacy", [1, 0, 1, 2, 3], 349, [1, 0, 0, 0], 2, "", 21),
            ("Conquest", [1, 0, 1, 2, 3], 663, [1, 0, 0, 0], 2, "", 21),
        ],
    ),
    (
        "7 of Cups",
        &[
            ("Diplomacy", [1, 1, 1, 2, 3], 350, [1, 0, 0, 0], 3, "", 25),
            ("Conquest", [1, 1, 1, 2, 3], 664, [1, 0, 0, 0], 3, "", 25),
        ],
    ),
    (
        "8 of Cups",
        &[
            ("Diplomacy", [1, 1, 1, 3, 3], 351, [1, 0, 0, 1], 3, "250+", 28),
            ("Conquest", [1, 1, 1, 3, 3], 665, [1, 0, 0, 1], 3, "250+", 28),
        ],
    ),
    (
        "9 of Cups",
        &[
            ("Diplomacy", [1, 2, 1, 3, 4], 352, [1, 0, 0, 1], 3, "250+", 36),
            ("Conquest", [1, 2, 1, 3, 4], 666, [1, 0, 0, 1], 3, "250+", 36),
        ],
    ),
    (
        "10 of Cups",
        &[
            ("Diplomacy", [2, 2, 1, 3, 4], 353, [1, 0, 0, 1], 4, "250+", 42),
            ("Conquest", [2, 2, 1, 3, 4], 667, [1, 0, 0, 1], 4, "250+", 42),
        ],
    ),
    (
        "Ace of Cups",
        &[
            ("Diplomacy", [2, 3, 1, 4, 4], 354, [1, 0, 0, 1], 4, "250+", 48),
            ("Conquest", [2, 3, 1, 4, 4], 668, [1, 0, 0, 1], 4, "250+", 48),
        ],
    ),
    (
        "4 of Rods",
        &[
            ("Mysticism", [0, 0, 0, 3, 1], 429, [0, 1, 0, 1], 2, "", 7),
            ("Sorcery", [0, 0, 0, 3, 1], 732, [0, 1, 0, 1], 2, "", 7),
        ],
    ),
    (
        "5 of Rods",
        &[
            ("Mysticism", [0, 0, 1, 3, 1], 430, [0, 1, 0, 1], 2, "", 17),
            ("Sorcery", [0, 0, 1, 3, 1], 733, [0, 1, 0, 1], 2, "", 17),
        ],
    ),
    (
        "6 of Rods",
        &[
            ("Mysticism", [0, 0, 1, 4, 1], 431, [0, 1, 0, 2], 2, "", 21),
            ("Sorcery", [0, 0, 1, 4, 1], 734, [0, 1, 0, 2], 2, "", 21),
        ],
    ),
    (
        "7 of Rods",
        &[
            ("Mysticism", [0, 1, 1, 4, 1], 432, [0, 1, 0, 2], 3, "", 25),
            ("Sorcery", [0, 1, 1, 4, 1], 735, [0, 1, 0, 2], 3, "", 25),
        ],
    ),
    (
        "8 of Rods",
        &[
            ("Mysticism", [0, 1, 1, 5, 1], 433, [0, 1, 0, 3], 3, "250+", 28),
            ("Sorcery", [0, 1, 1, 5, 1], 736, [0, 1, 0, 3], 3, "250+", 28),
        ],
    ),
    (
        "9 of Rods",
        &[
            ("Mysticism", [1, 1, 1, 5, 1], 434, [1, 1, 0, 3], 3, "250+", 36),
            ("Sorcery", [1, 1, 1, 5, 1], 737, [1, 1, 0, 3], 3, "250+", 36),
        ],
    ),
    (
        "10 of Rods",
        &[
            ("Mysticism", [2, 1, 1, 5, 1], 435, [1, 2, 0, 3], 4, "250+", 42),
            ("Sorcery", [2, 1, 1, 5, 1], 738, [1, 2, 0, 3], 4, "250+", 42),
        ],
    ),
    (
        "Ace of Rods",
        &[
            ("Mysticism", [2, 2, 1, 6, 1], 436, [1, 2, 0, 3], 4, "250+", 48),
            ("Sorcery", [2, 2, 1, 6, 1], 739, [1, 2, 0, 3], 4, "250+", 48),
        ],
    ),
    (
        "4 of Coins",
        &[
            ("Liberty", [1, 0, 0, 2, 1], 505, [1, 1, 0, 0], 2, "", 7),
            ("Savagery", [1, 0, 0, 2, 1], 810, [1, 1, 0, 0], 2, "", 7),
        ],
    ),
    (
        "5 of Coins",
        &[
            ("Liberty", [1, 0, 1, 2, 1], 506, [1, 1, 0, 0], 2, "", 17),
            ("Savagery", [1, 0, 1, 2, 1], 811, [1, 1, 0, 0], 2, "", 17),
        ],
    ),
    (
        "6 of Coins",
        &[
            ("Liberty", [1, 0, 1, 2, 1], 507, [1, 1, 1, 0], 2, "", 21),
            ("Savagery", [1, 0, 1, 2, 1], 812, [1, 1, 1, 0], 2, "", 21),
        ],
    ),
    (
        "7 of Coins",
        &[
            ("Liberty", [1, 1, 1, 2, 1], 508, [1, 1, 1, 0], 3, "", 25),
            ("Savagery", [1, 1, 1, 2, 1], 813, [1, 1, 1, 0], 3, "", 25),
        ],
    ),
    (
        "8 of Coins",
        &[
            ("Liberty", [1, 1, 1, 3, 1], 509, [1, 1, 1, 1], 3, "250+", 28),
            ("Savagery", [1, 1, 1, 3, 1], 814, [1, 1, 1, 1], 3, "250+", 28),
        ],
    ),
    (
        "9 of Coins",
        &[
            ("Liberty", [2, 1, 1, 3, 1], 510, [2, 1, 1, 1], 3, "250+", 36),
            ("Savagery", [2, 1, 1, 3, 1], 815, [2, 1, 1, 1], 3, "250+", 36),
        ],
    ),
    (
        "10 of Coins",
        &[
            ("Liberty", [3, 1, 1, 3, 1], 511, [2, 2, 1, 1], 4, "250+", 42),
            ("Savagery", [3, 1, 1, 3, 1], 816, [2, 2, 1, 1], 4, "250+", 42),
        ],
    ),
    (
        "Ace of Coins",
        &[
            ("Liberty", [3, 2, 1, 4, 1], 512, [2, 2, 1, 1], 4, "250+", 48),
            ("Savagery", [3, 2, 1, 4, 1], 817, [2, 2, 1, 1], 4, "250+", 48),
        ],
    ),
];

/// (weapon, value section, EC, type, W-Att, W-Pow, reach, crit, special, hands, points, line)
pub type WeaponRow =
    (&'static str, &'static str, u8, &'static str, i32, i32, &'static str, &'static str, &'static str, u8, u32, u32);
pub const WEAPONS: &[WeaponRow] = &[
    ("Blade", "Universal", 2, "Mundane", 2, 2, "1", "Pow+2", "", 1, 5, 179),
    ("Dagger", "Universal", 2, "Mundane", 1, 1, "1", "Injury+1", "Multiattack", 1, 3, 180),
    ("Mace", "Universal", 3, "Mundane", 1, 3, "1", "Stun", "", 1, 4, 181),
    ("Spear", "Universal", 2, "Mundane", 2, 1, "2", "Injury+1", "", 1, 3, 182),
    ("Bow", "Universal", 3, "Mundane", 2, 1, "5+", "Injury+1", "Ranged", 1, 3, 183),
    ("Pike", "Universal", 2, "Mundane", 2, 2, "3", "Injury+1", "", 2, 6, 184),
    ("Longbow", "Universal", 3, "Mundane", 3, 2, "7+", "Injury+1", "Ranged", 2, 6, 185),
    ("Staff", "Universal", 2, "Mundane", 0, 1, "2", "Stun", "S-Pow+1", 1, 5, 186),
    ("Heavy Crossbow", "Universal", 3, "Mundane", 2, 3, "5+", "Injury+1", "Ranged", 2, 6, 187),
    ("Long sword", "Universal", 2, "Mundane", 3, 3, "1", "Pow+3", "", 2, 8, 188),
    ("Hammer", "Universal", 2, "Mundane", 0, 3, "1", "Stun", "", 1, 5, 189),
    ("Javelin", "Universal", 2, "Mundane", 2, 1, "2", "Injury+1", "Throw 1E", 1, 5, 190),
    ("Flail", "Universal", 3, "Mundane", 3, 2, "1", "Stun", "", 1, 3, 191),
    ("Broad Ax", "Chivalry", 3, "Mundane", 0, 4, "1", "Stun", "", 1, 5, 280),
    ("Short Bow", "Chivalry", 2, "Mundane", 1, 1, "5+", "Injury+1", "Ranged, Multiattack", 1, 5, 281),
    ("Sabre", "Diplomacy", 2, "Mundane", 2, 1, "1", "Injury+2", "Sharp", 1, 6, 357),
    ("Throwing Blade", "Diplomacy", 2, "Mundane", 2, 2, "1", "Injury+1", "Throw 1E", 1, 6, 358),
    ("Scepter", "Mysticism", 2, "Mundane", 1, 1, "1", "Stun", "S-Pow+1", 1, 6, 439),
    ("Great Club", "Mysticism", 3, "Mundane", 2, 4, "1", "Stun, Pow+2", "", 2, 7, 440),
    ("Pistol", "Liberty", 2, "Mundane", 0, 3, "4+", "Pow+2", "Ranged, Unstable", 1, 5, 515),
    ("Rifle", "Liberty", 3, "Mundane", 1, 4, "7+", "Pow+3", "Ranged, Unstable", 2, 8, 516),
    ("Dire Blade", "Brutality", 4, "Mundane", 2, 5, "2", "Pow+4", "", 2, 9, 593),
    ("Shiv", "Brutality", 2, "Mundane", 2, 1, "1", "Injury+1", "Multiattack", 1, 6, 594),
    ("Chain Whip", "Conquest", 2, "Mundane", 3, 1, "2", "Hex 2", "", 1, 5, 671),
    ("Light Crossbow", "Conquest", 2, "Mundane", 2, 2, "4+", "Injury+1", "Ranged", 2, 7, 672),
    ("Scythe", "Sorcery", 3, "Mundane", 2, 3, "2", "Injury+1", "Sharp", 2, 7, 742),
    ("Halberd", "Sorcery", 2, "Mundane", 1, 2, "2", "Pow+2", "", 1, 5, 743),
    ("Claw", "Savagery", 2, "Mundane", 0, 2, "1", "Pow+2", "Multiattack", 1, 4, 820),
    ("Bite", "Savagery", 2, "Mundane", 0, 3, "1", "Pow+2", "", 0, 6, 821),
];

/// (enchantment, value section, minimum rank, type, special as printed, points, line)
pub const WEAPON_ENCHANTMENTS: &[(&str, &str, u8, &str, &str, u32, u32)] = &[
    ("Bright", "Chivalry", 4, "Light", "W-Att+1", 2, 288),
    ("Unicorn", "Chivalry", 8, "Light", "Reach+1(+2 if ranged), Ignore Partial Cover", 4, 289),
    ("Thunder", "Diplomacy", 4, "Electric", "On Injury: Stun", 2, 365),
    ("Quick", "Diplomacy", 8, "Electric", "Multiattack", 5, 366),
    ("Frost", "Mysticism", 4, "Cold", "On Hit: Drain 1E", 3, 445),
    ("Crystal", "Mysticism", 8, "Cold", "No Reactions", 4, 446),
    ("Rune", "Liberty", 4, "Magic", "On Hit: Drain 1 Mana", 3, 523),
    ("Silver", "Liberty", 8, "Magic", "W-Att+1, W-Pow+1", 6, 524),
    ("Flame", "Brutality", 4, "Fire", "W-Pow+1", 3, 599),
    ("Destruction", "Brutality", 8, "Fire", "Blast Attack, Radius 1", 5, 600),
    ("Chaotic", "Conquest", 4, "Magic", "On Injury: Flee (Fear)", 3, 677),
    ("Adamantine", "Conquest", 8, "Magic", "W-Pow+2", 7, 678),
    ("Shadow", "Sorcery", 4, "Dark", "On Hit: Hex 1", 4, 748),
    ("Bone", "Sorcery", 8, "Dark", "Crit: Slay", 7, 749),
    ("Corrosive", "Savagery", 4, "Acid", "On Injury: Poison 1", 3, 826),
    ("Vampiric", "Savagery", 8, "Acid", "On Injury: Recover 1 Injury", 6, 827),
];

/// (armour, [(value section, class, Def modifier, Arm bonus, points, line)])
pub type ArmourPrinting = (&'static str, &'static str, i32, i32, u32, u32);
pub const ARMOURS: &[(&str, &[ArmourPrinting])] = &[
    ("Leather", &[("Universal", "light", 0, 1, 4, 202)]),
    ("Chain", &[("Universal", "medium", -1, 2, 5, 203)]),
    ("Breastplate", &[("Universal", "heavy", -2, 3, 7, 204)]),
    ("Heavy Plate", &[("Chivalry", "heavy", -2, 4, 14, 296), ("Brutality", "heavy", -2, 4, 14, 607)]),
    ("Scale Armor", &[("Diplomacy", "medium", -1, 3, 10, 373), ("Conquest", "medium", -1, 3, 10, 683)]),
    ("Cloth Armor", &[("Mysticism", "light", 1, 1, 7, 455), ("Sorcery", "light", 1, 1, 7, 754)]),
    ("Studded Leather", &[("Liberty", "medium", 0, 2, 8, 535), ("Savagery", "medium", 0, 2, 8, 832)]),
];

/// (enchantment, value section, minimum rank, ability or effect as printed, points, line)
pub const ARMOUR_ENCHANTMENTS: &[(&str, &str, u8, &str, u32, u32)] = &[
    ("Bright", "Chivalry", 4, "Immune to Light", 3, 299),
    ("Unicorn", "Chivalry", 8, "Few Stood Against Many", 10, 300),
    ("Thunder", "Diplomacy", 4, "Immune to Electric", 3, 376),
    ("Quick", "Diplomacy", 8, "End+1", 7, 377),
    ("Frost", "Mysticism", 4, "Immune to Cold", 3, 458),
    ("Crystal", "Mysticism", 8, "Def+1", 5, 459),
    ("Rune", "Liberty", 4, "Mark of the Titans", 8, 538),
    ("Silver", "Liberty", 8, "Immune to Magic", 5, 539),
    ("Flame", "Brutality", 4, "Immune to Fire", 3, 610),
    ("Destruction", "Brutality", 8, "Flame Wreath", 6, 611),
    ("Chaotic", "Conquest", 4, "Shrieking Armor", 7, 686),
    ("Adamantine", "Conquest", 8, "Armor+1", 6, 687),
    ("Shadow", "Sorcery", 4, "Immune to Dark", 3, 757),
    ("Bone", "Sorcery", 8, "Immune to Slay", 5, 758),
    ("Corrosive", "Savagery", 4, "Immune to Acid", 3, 835),
    ("Vampiric", "Savagery", 8, "Voodoo", 7, 836),
];

/// (accessory, value section, hands, ability or effect as printed, points, line)
pub const ACCESSORIES: &[(&str, &str, u8, &str, u32, u32)] = &[
    ("Shield", "Universal", 1, "Block 2 (RE) 1E", 3, 207),
    ("Torch", "Universal", 1, "Dazzle 2E", 3, 208),
    ("Jump Shoes", "Universal", 0, "Leaping Move", 3, 209),
    ("Cloak of Wings", "Universal", 0, "Move -1, Levitating Move", 5, 210),
    ("Potions Case", "Universal", 1, "Remedy 2E", 5, 211),
    ("Heavy Shield", "Chivalry", 1, "Block 4 (RE) 2E", 3, 307),
    ("Banner", "Diplomacy", 1, "Rally 1E", 3, 384),
    ("White Crystal", "Mysticism", 1, "Serenity", 4, 466),
    ("Buckler", "Liberty", 0, "Block 2 (RE) 1E", 6, 546),
    ("Voodoo Doll", "Brutality", 1, "Voodoo", 5, 618),
    ("Horn of Command", "Conquest", 1, "Comm+2", 8, 692),
    ("Red Crystal", "Sorcery", 1, "Vicious", 4, 765),
    ("Lyre of Distraction", "Savagery", 1, "Distract (RE) 2E", 6, 843),
];

/// (skill, value section, table heading, points, line); comments mark the §3.9 readings.
pub const SKILLS: &[(&str, &str, &str, u32, u32)] = &[
    ("Power Attack", "Universal", "Swords", 0, 228),
    ("Parry", "Universal", "Swords", 0, 229),
    ("Shrug", "Universal", "Swords", 2, 230),
    ("Guided Strike", "Universal", "Swords", 2, 231),
    ("Tactical Strike", "Universal", "Cups", 0, 234),
    ("Look Out", "Universal", "Cups", 0, 235),
    ("Plan Ahead", "Universal", "Cups", 2, 236),
    ("Frighten", "Universal", "Cups", 2, 237),
    ("Mage Armor", "Universal", "Rods", 0, 240),
    ("Static Jolt", "Universal", "Rods", 0, 242),
    ("Mana Gift", "Universal", "Rods", 2, 243),
    ("Deflect", "Universal", "Rods", 4, 244), // §3.9: printed "9" over "4"
    ("Dodge", "Universal", "Coins", 0, 248),
    ("Backstab", "Universal", "Coins", 0, 249),
    ("Sudden Strike", "Universal", "Coins", 2, 251),
    ("Snipe", "Universal", "Coins", 2, 252),
    ("Smite", "Chivalry", "Any Rank 4 or Greater", 4, 312),
    ("Got your Back", "Chivalry", "Swords", 2, 316), // §3.9: printed "9" over "2"
    ("Meditate", "Chivalry", "Swords 4+", 4, 320),
    ("Buck Shot", "Chivalry", "Swords 4+", 4, 321),
    ("Counter Attack", "Chivalry", "Swords 4+", 4, 322),
    ("Persevere", "Chivalry", "Swords 4+", 4, 323),
    ("Challenge", "Chivalry", "Swords 8+", 8, 326),
    ("Thunder Strike", "Chivalry", "Swords 8+", 8, 327),
    ("Chilling Strike", "Diplomacy", "Any Rank 4 or Greater", 4, 389),
    ("Inspire Urgency", "Diplomacy", "Cups", 4, 392), // §3.9: printed "9" over "4"
    ("Assess the Threat", "Diplomacy", "Cups 4+", 4, 396), // §3.9: printed "1" over "4"
    ("Inspire Fortitude", "Diplomacy", "Cups 4+", 4, 398), // §3.9: printed "1" over "4"
    ("Out-Maneuver", "Diplomacy", "Cups 4+", 4, 400),
    ("Haste", "Diplomacy", "Cups 4+", 4, 402),
    ("Swift Assault", "Diplomacy", "Cups 8+", 8, 406),
    ("Inspire Bravery", "Diplomacy", "Cups 8+", 8, 407),
    ("Regenerate", "Mysticism", "Any Rank 4 or Greater", 4, 471),
    ("Vigorate", "Mysticism", "Rods", 2, 474),
    ("Whirling Gale", "Mysticism", "Rods 4+", 4, 477),
    ("Heal", "Mysticism", "Rods 4+", 4, 478),
    ("Tap into Gea", "Mysticism", "Rods 4+", 4, 479),
    ("Upheaval", "Mysticism", "Rods 4+", 4, 480),
    ("Epic Heal", "Mysticism", "Rods 8+", 8, 483),
    ("Flash Freeze", "Mysticism", "Rods 8+", 8, 484), // §3.9: not printed; the Rods 8+ price
    ("Wreck", "Liberty", "Any Rank 4 or Greater", 4, 551),
    ("Trip", "Liberty", "Coins", 2, 554), // §3.9: printed "9" over "2"
    ("Decoy", "Liberty", "Coins 4+", 4, 558),
    ("Gather Courage", "Liberty", "Coins 4+", 4, 559),
    ("Clobber", "Liberty", "Coins 4+", 4, 560),
    ("Fortune", "Liberty", "Coins 4+", 4, 561),
    ("Barrage", "Liberty", "Coins 8+", 8, 564),
    ("Camouflage", "Liberty", "Coins 8+", 8, 565),
    ("Fire Breathing", "Brutality", "Any Rank 4 or Greater", 4, 623),
    ("Shove", "Brutality", "Swords", 2, 626), // §3.9: printed "9" over "2"
    ("Butcher", "Brutality", "Swords 4+", 4, 630),
    ("Berserk", "Brutality", "Swords 4+", 4, 631),
    ("Hyper Cutter", "Brutality", "Swords 4+", 4, 632),
    ("Pain Warp", "Brutality", "Swords 4+", 4, 633),
    ("Finishing Blow", "Brutality", "Swords 8+", 8, 639),
    ("Retaliate", "Brutality", "Swords 8+", 8, 640),
    ("Shockwave", "Conquest", "Any Rank 4 or Greater", 4, 697),
    ("Majesty", "Conquest", "Cups", 2, 700), // §3.9: printed "9" over "2"
    ("Castle", "Conquest", "Cups 4+", 4, 704),
    ("Check", "Conquest", "Cups 4+", 4, 705),
    ("Heat of Battle", "Conquest", "Cups 4+", 4, 706),
    ("Inspire Hatred", "Conquest", "Cups 4+", 4, 707),
    ("Kiss of Death", "Conquest", "Cups 8+", 8, 710),
    ("Checkmate", "Conquest", "Cups 8+", 8, 711),
    ("Shadow Hop", "Sorcery", "Any Rank 4 or Greater", 4, 770), // §3.9: "4" over "-1"
    ("Embloody", "Sorcery", "Rods", 2, 774),                    // §3.9: the row is "2" with stray empty cells
    ("Touch of Death", "Sorcery", "Rods 4+", 4, 777),
    ("Caustic Burst", "Sorcery", "Rods 4+", 4, 779), // §3.9: "4" on the wrapped line
    ("Power Channel", "Sorcery", "Rods 4+", 4, 781),
    ("Cling to Life", "Sorcery", "Rods 4+", 4, 783),
    ("Adamant Form", "Sorcery", "Rods 8+", 8, 787),
    ("Meteor", "Sorcery", "Rods 8+", 8, 788),
    ("Venom", "Savagery", "Any Rank 4 or Greater", 4, 849),
    ("Sidestep", "Savagery", "Coins", 4, 853), // §3.9: printed "9" over "4"
    ("Mana Theft", "Savagery", "Coins 4+", 4, 857),
    ("Gouge", "Savagery", "Coins 4+", 4, 858),
    ("Rip Around", "Savagery", "Coins 4+", 4, 859),
    ("Pounce", "Savagery", "Coins 4+", 4, 860),
    ("Scissor Strike", "Savagery", "Coins 8+", 8, 863),
    ("Contort", "Savagery", "Coins 8+", 8, 865),
];

/// The 129 glossary terms (126 headed entries and the three whose heading was lost: Flee, Ranged, Slay).
pub const GLOSSARY: [&str; 129] = [
    "Adamant Form",
    "Assess the Threat",
    "Backstab",
    "Barrage",
    "Berserk",
    "Blast attack",
    "Block 2",
    "Block 4",
    "Buck Shot",
    "Burst Attack",
    "Butcher",
    "Camouflage",
    "Castle",
    "Caustic Burst",
    "Challenge",
    "Check",
    "Checkmate",
    "Chilling Strike",
    "Cling to Life",
    "Clobber",
    "Contort",
    "Counter Attack",
    "Dauntless",
    "Dazzle",
    "Decoy",
    "Deflect",
    "Distract",
    "Dodge",
    "Drain",
    "Embloody",
    "Epic Heal",
    "Few Stood Against Many",
    "Finishing Blow",
    "Fire Breathing",
    "Flame Wreath",
    "Flash Freeze",
    "Flee",
    "Fortune",
    "Frighten",
    "Gather Courage",
    "Got your Back",
    "Gouge",
    "Guided Strike",
    "Haste",
    "Heal",
    "Heat of Battle",
    "Hex X",
    "Hyper Cutter",
    "Immune",
    "Immune to Mundane",
    "Immune to Acid",
    "Immune to Cold",
    "Immune to Dark",
    "Immune to Electric",
    "Immune to Fire",
    "Immune to Light",
    "Immune to Magic",
    "Immune to Slay",
    "Inspire Bravery",
    "Inspire Fortitude",
    "Inspire Hatred",
    "Inspire Urgency",
    "Kiss of Death",
    "Knockback X",
    "Leaping Move",
    "Levitating Move",
    "Line Attack X",
    "Look Out",
    "Luck",
    "Mage Armor",
    "Majesty",
    "Mana Gift",
    "Mana Theft",
    "Mark of the Titans",
    "Meditate",
    "Meteor",
    "Multiattack",
    "No Reactions",
    "On Hit",
    "On Injury",
    "Out-Maneuver",
    "Pain Warp",
    "Parry",
    "Persevere",
    "Plan Ahead",
    "Poison X",
    "Pounce",
    "Power Attack",
    "Power Channel",
    "Rally",
    "Ranged",
    "Recovery",
    "Regenerate",
    "Remedy",
    "Resist Elements 2",
    "Retaliate",
    "Rip Around",
    "Scissor Strike",
    "Serenity",
    "Shadow Hop",
    "Sharp",
    "Shockwave",
    "Shove",
    "Shrieking Armor",
    "Shrug",
    "Sidestep",
    "Skittish",
    "Slay",
    "Smite",
    "Snipe",
    "Static Jolt",
    "Steal X",
    "Stun",
    "Sudden Strike",
    "Swift Assault",
    "Tactical Strike",
    "Tap into Gea",
    "Throw",
    "Thunder Strike",
    "Touch of Death",
    "Trip",
    "Unstable",
    "Upheaval",
    "Venom",
    "Vicious",
    "Vigorate",
    "Voodoo",
    "Whirling Gale",
    "Wreck",
];
