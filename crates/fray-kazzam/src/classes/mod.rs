//! The ten classes' rules that need more than content data, one file per class, and class features in play.

pub mod brewer;
pub mod charmer;
pub mod diviner;
pub mod features;
pub mod hexer;
pub mod porter;
pub mod shivering_sword;
pub mod tamer;
pub mod tinker;
pub mod wandslinger;
pub mod wardmaster;
