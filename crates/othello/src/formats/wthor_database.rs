//! A folder of WTHOR files read whole, to find games by player, tournament and year (the
//! web app's "open a WTHOR game").
//!
//! A folder of two years' files and a players' file, searched:
//!
//! ```
//! use gamelab_othello::wthor::{self, PLAYER_RECORD, WthorGame};
//! use gamelab_othello::wthor_database::{Database, Query};
//!
//! let dir = std::env::temp_dir().join(format!("gamelab-doc-wthor-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let game = |tournament, black_player, white_player| WthorGame {
//!     tournament,
//!     black_player,
//!     white_player,
//!     black_discs: 32,
//!     black_theoretical: 32,
//!     moves: Vec::new(),
//! };
//! std::fs::write(dir.join("WTH_1990.wtb"), wthor::to_bytes(&[game(0, 0, 1)], 1990)?)?;
//! std::fs::write(dir.join("WTH_1991.wtb"), wthor::to_bytes(&[game(1, 1, 2), game(0, 2, 5)], 1991)?)?;
//! let mut names = vec![0u8; 16];
//! names[8] = 3;
//! for name in ["Tastet Marc", "Rose Ben", "Shaman Emmanuel"] {
//!     names.extend(name.bytes().chain(std::iter::repeat(0)).take(PLAYER_RECORD));
//! }
//! std::fs::write(dir.join("WTHOR.JOU"), names)?;
//!
//! let db = Database::open(&dir)?;
//! std::fs::remove_dir_all(&dir)?;
//! assert_eq!((db.len(), db.years()), (3, Some((1990, 1991))));
//! assert_eq!(db.game(1).unwrap().year, 1991);
//! // Players by name where the file has them, else by number; tournaments by number
//! // (there is no WTHOR.TRN here).
//! assert_eq!((db.player(1), db.player(5), db.tournament(1)),
//!     ("Rose Ben".to_string(), "player 5".to_string(), "tournament 1".to_string()));
//! let find = |query: Query| db.search(&query);
//! assert_eq!(find(Query { player: Some("ROSE".into()), ..Query::default() }), [0, 1]);
//! assert_eq!(find(Query { player: Some("rose".into()), year: Some(1991), ..Query::default() }), [1]);
//! assert_eq!(find(Query { tournament: Some("tournament 0".into()), ..Query::default() }), [0, 2]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;

use crate::formats::wthor::{self, WthorError, WthorGame, io_error};

/// Every game of a folder's `.wtb` files, with the names of `WTHOR.JOU` and `WTHOR.TRN`.
pub struct Database {
    games: Vec<DatabaseGame>,
    players: Vec<String>,
    tournaments: Vec<String>,
    /// The names in lower case, to match without regard to case.
    players_lower: Vec<String>,
    tournaments_lower: Vec<String>,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Database({} WTHOR games)", self.games.len())
    }
}

/// A game and the year its file's header gives.
pub struct DatabaseGame {
    pub year: u16,
    pub game: WthorGame,
}

/// Which games to find; every part given must match.
#[derive(Default, Debug, Clone)]
pub struct Query {
    /// Part of either player's name, in any case.
    pub player: Option<String>,
    /// Part of the tournament's name, in any case.
    pub tournament: Option<String>,
    pub year: Option<u16>,
}

/// At most this many bytes are read from a file of the folder (the largest WTHOR file of
/// 1977–2021 has under 1 MB).
const MAX_FILE_BYTES: u64 = 64 << 20;

fn read(path: &Path) -> Result<Vec<u8>, WthorError> {
    gamelab_core::files::read_regular(path, MAX_FILE_BYTES).map_err(|e| io_error(path, e))
}

impl Database {
    /// Reads every `.wtb` file of `folder` (in name order) and, where they are there, its
    /// `WTHOR.JOU` and `WTHOR.TRN` (without them, players and tournaments go by number).
    pub fn open(folder: &Path) -> Result<Database, WthorError> {
        let files = wthor::wtb_files(folder)?;
        let mut games = Vec::new();
        for path in &files {
            let bytes = read(path)?;
            let list = wthor::parse(&bytes, &path.display().to_string())?;
            let year = u16::from_le_bytes([bytes[10], bytes[11]]);
            games.extend(list.into_iter().map(|game| DatabaseGame { year, game }));
        }
        let names = |file: &str, record: usize| -> Result<Vec<String>, WthorError> {
            let path = folder.join(file);
            if !path.exists() {
                return Ok(Vec::new());
            }
            wthor::parse_names(&read(&path)?, record, &path.display().to_string())
        };
        let players = names("WTHOR.JOU", wthor::PLAYER_RECORD)?;
        let tournaments = names("WTHOR.TRN", wthor::TOURNAMENT_RECORD)?;
        Ok(Database::new(games, players, tournaments))
    }

    /// A database of `games` with the names their records refer to by index (the
    /// module's tests build one without files).
    pub fn new(
        games: Vec<DatabaseGame>,
        players: Vec<String>,
        tournaments: Vec<String>,
    ) -> Database {
        let lower = |names: &[String]| names.iter().map(|n| n.to_lowercase()).collect();
        Database {
            players_lower: lower(&players),
            tournaments_lower: lower(&tournaments),
            games,
            players,
            tournaments,
        }
    }

    /// How many games it holds.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Game `index` in the folder's order.
    pub fn game(&self, index: usize) -> Option<&DatabaseGame> {
        self.games.get(index)
    }

    /// The first and last years of the games.
    pub fn years(&self) -> Option<(u16, u16)> {
        let years = self.games.iter().map(|g| g.year);
        Some((years.clone().min()?, years.max()?))
    }

    /// Player `i`'s name, or `player i` where the names file has none.
    pub fn player(&self, i: u16) -> String {
        wthor::name_or_number(&self.players, i, "player")
    }

    /// Tournament `i`'s name, or `tournament i` where the names file has none.
    pub fn tournament(&self, i: u16) -> String {
        wthor::name_or_number(&self.tournaments, i, "tournament")
    }

    /// The indices of the games `query` matches, in the folder's order.
    pub fn search(&self, query: &Query) -> Vec<usize> {
        let player = query.player.as_deref().map(str::to_lowercase);
        let tournament = query.tournament.as_deref().map(str::to_lowercase);
        let has = |names: &[String], i: u16, part: &str, what: &str| match names
            .get(usize::from(i))
            .filter(|n| !n.is_empty())
        {
            Some(n) => n.contains(part),
            None => format!("{what} {i}").contains(part),
        };
        self.games
            .iter()
            .enumerate()
            .filter(|(_, g)| query.year.is_none_or(|y| g.year == y))
            .filter(|(_, g)| {
                player.as_deref().is_none_or(|p| {
                    has(&self.players_lower, g.game.black_player, p, "player")
                        || has(&self.players_lower, g.game.white_player, p, "player")
                })
            })
            .filter(|(_, g)| {
                tournament.as_deref().is_none_or(|t| {
                    has(&self.tournaments_lower, g.game.tournament, t, "tournament")
                })
            })
            .map(|(i, _)| i)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    fn game(tournament: u16, black: u16, white: u16) -> WthorGame {
        WthorGame {
            tournament,
            black_player: black,
            white_player: white,
            black_discs: 40,
            black_theoretical: 36,
            moves: vec![Square::from_index(37).unwrap()],
        }
    }

    fn database() -> Database {
        Database::new(
            vec![
                DatabaseGame {
                    year: 1990,
                    game: game(0, 0, 1),
                },
                DatabaseGame {
                    year: 1991,
                    game: game(1, 1, 2),
                },
                DatabaseGame {
                    year: 1991,
                    game: game(0, 2, 5),
                },
            ],
            vec!["Tastet Marc".into(), "Rose Ben".into(), "Françoise".into()],
            vec!["Paris Open".into(), "World Championship".into()],
        )
    }

    #[test]
    fn games_are_found_by_player_either_colour_tournament_and_year() {
        let db = database();
        let find = |player: Option<&str>, tournament: Option<&str>, year: Option<u16>| {
            db.search(&Query {
                player: player.map(String::from),
                tournament: tournament.map(String::from),
                year,
            })
        };
        assert_eq!(find(None, None, None), [0, 1, 2]);
        assert_eq!(find(Some("rose"), None, None), [0, 1]);
        assert_eq!(find(Some("FRANÇOISE"), None, None), [1, 2]);
        assert_eq!(find(Some("rose"), None, Some(1991)), [1]);
        assert_eq!(find(None, Some("world"), None), [1]);
        assert_eq!(find(Some("nobody"), None, None), Vec::<usize>::new());
        // A player the names file does not have goes by number.
        assert_eq!(find(Some("player 5"), None, None), [2]);
        assert_eq!(db.player(5), "player 5");
        assert_eq!(db.years(), Some((1990, 1991)));
    }

    #[test]
    fn the_shared_folder_is_read_whole() {
        let folder =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/othello/wthor");
        let db = Database::open(&folder).unwrap();
        assert_eq!(db.len(), 127_475);
        assert_eq!(db.years(), Some((1977, 2021)));
        let found = db.search(&Query {
            year: Some(1990),
            ..Query::default()
        });
        assert!(!found.is_empty() && found.iter().all(|&i| db.game(i).unwrap().year == 1990));
        assert!(Database::open(&folder.join("WTHOR.JOU")).is_err());
    }
}
