//! The catalogue of games: the one place that lists them. The CLI, the web app and the
//! tests iterate over it and run their generic code through [`visit`]; adding a game is
//! adding its crate and one line to the `catalogue!` call below.

pub mod dyn_game;
pub mod experiments;
pub mod explore;
pub mod records;
pub mod session;
pub mod views;

use gamelab_core::{BoardError, CatalogueEntry, GameVisitor};

/// A game name or board the catalogue does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    #[error("unknown game `{name}`; gamelab plays {}", NAMES.join(", "))]
    UnknownGame { name: String },
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// A game of the catalogue, as a front end lists it before choosing one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: &'static str,
    pub title: &'static str,
    /// Board data structures, the default first.
    pub boards: &'static [&'static str],
}

macro_rules! catalogue {
    ($($entry:ty),+ $(,)?) => {
        /// Every game, in the order the front ends show them (the first is the default).
        pub const GAMES: &[Entry] = &[$(Entry {
            name: <$entry as CatalogueEntry>::NAME,
            title: <$entry as CatalogueEntry>::TITLE,
            boards: <$entry as CatalogueEntry>::BOARDS,
        }),+];

        /// The games' names, as `--game` and the API take them.
        pub const NAMES: &[&str] = &[$(<$entry as CatalogueEntry>::NAME),+];

        /// Runs `visitor` on the game called `game` over the board structure `board` (its
        /// default when `None`).
        pub fn visit<V: GameVisitor>(
            game: &str,
            board: Option<&str>,
            visitor: V,
        ) -> Result<V::Output, CatalogueError> {
            $(
                if game == <$entry as CatalogueEntry>::NAME {
                    return <$entry as CatalogueEntry>::visit(board, visitor).map_err(CatalogueError::from);
                }
            )+
            Err(CatalogueError::UnknownGame { name: game.to_string() })
        }
    };
}

catalogue!(
    gamelab_ttt::Catalogue,
    gamelab_othello::Catalogue,
    gamelab_connect4::Catalogue,
);

/// The default game: the catalogue's first.
pub const DEFAULT: &str = NAMES[0];

/// The board structure `board` of game `game` (the game's default when `None`), as the
/// catalogue names it.
pub fn board(game: &str, board: Option<&str>) -> Result<&'static str, CatalogueError> {
    let entry = find(game)?;
    match board {
        None => Ok(entry.boards[0]),
        Some(b) => entry
            .boards
            .iter()
            .find(|&&known| known == b)
            .copied()
            .ok_or_else(|| {
                CatalogueError::Board(BoardError {
                    game: entry.name,
                    board: b.to_string(),
                    known: entry.boards,
                })
            }),
    }
}

/// The catalogue entry called `name`.
pub fn find(name: &str) -> Result<&'static Entry, CatalogueError> {
    GAMES
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| CatalogueError::UnknownGame {
            name: name.to_string(),
        })
}

/// What a front end shows of the game called `name`: its board, sides, notation,
/// defaults, strengths and AIs with their parameters (`GET /api/catalogue`'s entries).
///
/// ```
/// let info = gamelab_games::game_info("othello").unwrap();
/// assert_eq!((info.title, info.rows, info.cols), ("Othello", 8, 8));
/// assert!(info.ais.iter().any(|ai| ai.name == "engine"));
/// ```
pub fn game_info(name: &str) -> Result<gamelab_core::describe::GameInfo, CatalogueError> {
    struct Info;
    impl GameVisitor for Info {
        type Output = gamelab_core::describe::GameInfo;
        fn visit<G: gamelab_core::Described>(self) -> Self::Output {
            gamelab_core::describe::game_info::<G>()
        }
    }
    visit(name, None, Info)
}

/// The game called `name`'s symmetries as permutations of its squares and actions
/// (`gamelab_core::actions::symmetry_maps`).
pub fn symmetry_maps(
    name: &str,
) -> Result<Vec<gamelab_core::actions::SymmetryMap>, CatalogueError> {
    struct Maps;
    impl GameVisitor for Maps {
        type Output = Vec<gamelab_core::actions::SymmetryMap>;
        fn visit<G: gamelab_core::Described>(self) -> Self::Output {
            gamelab_core::actions::symmetry_maps::<G>()
        }
    }
    visit(name, None, Maps)
}

/// The game whose own record format files end in `.{extension}` (`ggf`: Othello), if any.
pub fn by_record_extension(extension: &str) -> Option<&'static str> {
    struct Extension;
    impl GameVisitor for Extension {
        type Output = Option<&'static str>;
        fn visit<G: gamelab_core::Described>(self) -> Self::Output {
            G::RECORD_EXTENSION
        }
    }
    GAMES
        .iter()
        .find(|g| visit(g.name, None, Extension).ok().flatten() == Some(extension))
        .map(|g| g.name)
}

/// The games whose registries have an AI called `name`, in catalogue order: for a hint
/// when a spec names an AI of another game than the one asked for.
///
/// ```
/// assert_eq!(gamelab_games::games_with_ai("engine"), ["othello"]);
/// assert_eq!(gamelab_games::games_with_ai("mcts"), ["ttt", "othello", "connect4"]);
/// ```
pub fn games_with_ai(name: &str) -> Vec<&'static str> {
    struct HasAi<'a>(&'a str);
    impl GameVisitor for HasAi<'_> {
        type Output = bool;
        fn visit<G: gamelab_core::Described>(self) -> bool {
            G::registry().find(self.0).is_some()
        }
    }
    GAMES
        .iter()
        .filter(|g| visit(g.name, None, HasAi(name)).unwrap_or(false))
        .map(|g| g.name)
        .collect()
}

/// The protocols that the AIs running outside programs speak, over every game, each once.
///
/// ```
/// assert_eq!(gamelab_games::program_protocols(), ["nboard", "gtp"]);
/// ```
pub fn program_protocols() -> Vec<&'static str> {
    struct Protocols;
    impl GameVisitor for Protocols {
        type Output = Vec<&'static str>;
        fn visit<G: gamelab_core::Described>(self) -> Self::Output {
            G::registry().program_protocols()
        }
    }
    let mut all = Vec::new();
    for game in GAMES {
        for protocol in visit(game.name, None, Protocols).unwrap_or_default() {
            if !all.contains(&protocol) {
                all.push(protocol);
            }
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use gamelab_core::Described;

    use super::*;

    struct NameAndAis;
    impl GameVisitor for NameAndAis {
        type Output = (&'static str, usize);
        fn visit<G: Described>(self) -> Self::Output {
            (G::NAME, G::registry().entries().len())
        }
    }

    #[test]
    fn every_entry_visits_its_own_game() {
        for entry in GAMES {
            for board in entry.boards {
                let (name, ais) = visit(entry.name, Some(board), NameAndAis).unwrap();
                assert_eq!(name, entry.name);
                assert!(ais > 0, "{name} has no AI");
            }
        }
    }

    #[test]
    fn a_record_extension_names_its_game() {
        assert_eq!(by_record_extension("ggf"), Some("othello"));
        assert_eq!(by_record_extension("jsonl"), None);
    }

    #[test]
    fn unknown_games_and_boards_are_errors() {
        let err = visit("chess", None, NameAndAis).unwrap_err().to_string();
        assert!(
            err.starts_with("unknown game `chess`; gamelab plays ttt, othello"),
            "{err}"
        );
        let err = visit("ttt", Some("3d"), NameAndAis)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("ttt has no board `3d`; its boards: bitboard, 2d"),
            "{err}"
        );
    }
}
