// Written by `cargo run --release -p gamelab-othello --example fit_probcut`.
/// The fitted lines: `CUTS[bucket][depth - MIN_DEPTH]`.
pub const CUTS: [[Cut; (MAX_DEPTH - MIN_DEPTH + 1) as usize]; BUCKETS] = [
    [
        Cut { intercept: -0.0393, slope: 0.8609, sigma: 2.7448 },
        Cut { intercept: -0.6297, slope: 0.8621, sigma: 2.3388 },
        Cut { intercept: -0.1146, slope: 0.7569, sigma: 2.8379 },
        Cut { intercept: -0.7455, slope: 0.7770, sigma: 2.6299 },
        Cut { intercept: 0.0269, slope: 0.8043, sigma: 2.3225 },
        Cut { intercept: -0.5090, slope: 0.8533, sigma: 2.1540 },
        Cut { intercept: 0.0560, slope: 0.7523, sigma: 2.2643 },
        Cut { intercept: -0.6406, slope: 0.7990, sigma: 2.0165 },
        Cut { intercept: 0.2650, slope: 0.8432, sigma: 1.9621 },
        Cut { intercept: -0.5068, slope: 0.9016, sigma: 1.8126 },
    ],
    [
        Cut { intercept: -0.1331, slope: 0.9727, sigma: 3.2430 },
        Cut { intercept: -0.2362, slope: 0.9569, sigma: 2.8003 },
        Cut { intercept: -0.0788, slope: 0.9378, sigma: 3.8233 },
        Cut { intercept: -0.0833, slope: 0.9360, sigma: 3.4697 },
        Cut { intercept: 0.3042, slope: 0.9230, sigma: 2.7124 },
        Cut { intercept: 0.1305, slope: 0.9551, sigma: 2.5547 },
        Cut { intercept: 0.2832, slope: 0.9295, sigma: 3.1565 },
        Cut { intercept: 0.0754, slope: 0.9488, sigma: 3.1952 },
        Cut { intercept: 0.4329, slope: 0.9328, sigma: 2.5723 },
        Cut { intercept: -0.1757, slope: 0.9486, sigma: 2.5517 },
    ],
    [
        Cut { intercept: -0.4174, slope: 0.9939, sigma: 4.0725 },
        Cut { intercept: -0.0889, slope: 1.0166, sigma: 3.7706 },
        Cut { intercept: -0.5801, slope: 0.9831, sigma: 5.0956 },
        Cut { intercept: 0.3590, slope: 1.0029, sigma: 4.4164 },
        Cut { intercept: -0.0585, slope: 0.9998, sigma: 4.1320 },
        Cut { intercept: 0.3567, slope: 0.9901, sigma: 3.6329 },
        Cut { intercept: -0.0600, slope: 1.0031, sigma: 4.5373 },
        Cut { intercept: 0.7972, slope: 0.9989, sigma: 4.4657 },
        Cut { intercept: 0.0715, slope: 1.0119, sigma: 4.2427 },
        Cut { intercept: 0.5607, slope: 1.0217, sigma: 4.2915 },
    ],
];
/// The search's values the lines were fitted for (`fitted_values_digest`).
pub const FITTED_FOR: u64 = 0x049ab1a7f636caf2;
