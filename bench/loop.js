// loop.js: doubles, whose whole numbers JSON writes as ints: say so ("precision")
const text = require("fs").readFileSync(process.argv[2], "utf8");
const rows = text.trim().split("\n").slice(1).map(line => line.split(",").map(Number));
let w = rows[0].slice(1).fill(0), trace = [], epoch = 0, mistakes = 1;
while (mistakes && epoch < 1000) {
  epoch++, mistakes = 0;
  rows.forEach((row, i) => {
    const x = row.slice(0, -1), y = row[row.length - 1], s = x.reduce((sum, v, k) => sum + w[k] * v, 0);
    if ((s >= 0 ? 1 : -1) !== y) {
      w = w.map((a, k) => a + y * x[k]), mistakes++;
      trace.push({epoch, index: i, score: s, weights: w});
    }
  });
}
console.log(JSON.stringify({weights: w, trace, epochs: epoch, converged: !mistakes, precision: "binary64"}));
