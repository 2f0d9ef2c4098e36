//! Collision (New World Gaming Co.'s Character Creation Guide) on the Fray engine: the character
//! card builder. The option tables and glossary are data ([`content`]); [`builder`] checks a
//! character or battle-group file against every creation rule (C-CREATE-*) and computes the
//! cards; [`card`] writes them as text and SVG; [`reference`] is the rules look-up. The battle game
//! is not built yet: [`system`] refuses to start matches with a clear message.
#![deny(missing_docs)]

pub mod builder;
pub mod card;
pub mod content;
pub mod reference;
pub mod system;

pub use builder::{Card, CardWeapon, Checked, check_file};
pub use content::Content;
pub use system::system;
