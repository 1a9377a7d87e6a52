// Mocha reporter: the spec reporter's output, then one closing line "N passed, N failed, N skipped" from mocha's own counts.
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const { passes, failures, pending } = runner.stats;
      console.log(`${passes} passed, ${failures} failed, ${pending} skipped`);
    });
  }
}

module.exports = SummaryReporter;
