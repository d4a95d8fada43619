// Written by `cargo run --release -p gamelab-othello --example fit_probcut`.
/// The fitted lines: `CUTS[bucket][depth - MIN_DEPTH]`.
pub const CUTS: [[Cut; (MAX_DEPTH - MIN_DEPTH + 1) as usize]; BUCKETS] = [
    [
        Cut { intercept: -0.0839, slope: 0.8849, sigma: 2.8955 },
        Cut { intercept: -0.6914, slope: 0.8694, sigma: 2.4022 },
        Cut { intercept: -0.0422, slope: 0.8195, sigma: 2.7594 },
        Cut { intercept: -0.6669, slope: 0.8124, sigma: 2.8803 },
        Cut { intercept: 0.0755, slope: 0.8104, sigma: 2.1534 },
        Cut { intercept: -0.3740, slope: 0.8899, sigma: 1.9296 },
        Cut { intercept: 0.1158, slope: 0.7665, sigma: 2.3137 },
        Cut { intercept: -0.3747, slope: 0.8512, sigma: 2.0720 },
        Cut { intercept: 0.3095, slope: 0.8286, sigma: 1.8218 },
        Cut { intercept: -0.4680, slope: 0.8920, sigma: 1.7849 },
    ],
    [
        Cut { intercept: -0.1922, slope: 0.9880, sigma: 3.2466 },
        Cut { intercept: 0.0519, slope: 0.9826, sigma: 2.7207 },
        Cut { intercept: -0.0089, slope: 0.9595, sigma: 3.9286 },
        Cut { intercept: 0.0804, slope: 0.9526, sigma: 3.2493 },
        Cut { intercept: 0.3737, slope: 0.9304, sigma: 2.4890 },
        Cut { intercept: -0.0142, slope: 0.9521, sigma: 2.4050 },
        Cut { intercept: 0.3140, slope: 0.9289, sigma: 2.9269 },
        Cut { intercept: -0.0545, slope: 0.9375, sigma: 2.8065 },
        Cut { intercept: 0.3107, slope: 0.9209, sigma: 2.5137 },
        Cut { intercept: -0.2103, slope: 0.9475, sigma: 2.5698 },
    ],
    [
        Cut { intercept: -0.4481, slope: 0.9979, sigma: 3.8295 },
        Cut { intercept: -0.1362, slope: 1.0147, sigma: 3.4638 },
        Cut { intercept: -0.5742, slope: 0.9881, sigma: 4.9425 },
        Cut { intercept: 0.3218, slope: 1.0107, sigma: 4.0428 },
        Cut { intercept: 0.1258, slope: 1.0072, sigma: 3.9162 },
        Cut { intercept: 0.4325, slope: 0.9955, sigma: 3.5510 },
        Cut { intercept: -0.0389, slope: 1.0087, sigma: 4.4362 },
        Cut { intercept: 0.8710, slope: 1.0078, sigma: 4.3916 },
        Cut { intercept: 0.1240, slope: 1.0221, sigma: 4.1655 },
        Cut { intercept: 0.5626, slope: 1.0220, sigma: 4.1544 },
    ],
];
/// The search's values the lines were fitted for (`search::values_digest`).
pub const FITTED_FOR: u64 = 0x6b2278516247e03a;
