//! Dataset CSVs, against tic-tac-toe's feature sets and a small one that lets short inputs
//! reach the rows.

use gamelab_learn::{Dataset, FeatureSet};

fn known() -> &'static [FeatureSet] {
    static KNOWN: std::sync::OnceLock<Vec<FeatureSet>> = std::sync::OnceLock::new();
    KNOWN.get_or_init(|| {
        let mut known = gamelab_ttt::learned::FeatureSet::known();
        known.push(FeatureSet {
            name: "tiny".into(),
            names: vec!["a".into(), "b".into()],
        });
        known
    })
}

pub fn check(data: &[u8]) {
    if let Ok(set) = Dataset::parse_csv(data, "fuzz", "target", known()) {
        for row in &set.rows {
            assert!(row.target.is_finite());
        }
    }
}
