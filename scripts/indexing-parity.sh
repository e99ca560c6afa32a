#!/usr/bin/env bash
# Transcribe the vendor's PHP SDK's indexing validator test cases (klevu/php-sdk,
# tests/Unit/Validator/Indexing) into tests/data/vendor/php-sdk-validators/cases.jsonl, each with
# the SDK's own answer, by running the SDK's validators under php-cli.
#
#   scripts/indexing-parity.sh [PHP_SDK_GIT_DIR]   # default /work/.mirror/klevu+php-sdk/repo
#
# The SDK's src/ and tests/ are extracted into a temporary directory; PHPUnit (Composer-only) is
# replaced by a stand-in TestCase in scripts/indexing-parity/harness.php, which reads each test's
# data providers and #[TestWith] cases by reflection, runs the covered validator on each input,
# and writes the body that input would be on the wire (or why it has none: a closure, an object,
# a value that is not the SDK's model). Shapes a real shop sends (products with variants,
# categories, CMS pages, deletes, partial updates) follow as "held-out" cases. Nothing of the SDK
# is copied into the repository, only the inputs and its answers. Needs php-cli (Debian: apt-get
# install php-cli) and git; no network. tests/indexing_parity.rs reads the file, offline.
set -euo pipefail
cd "$(dirname "$0")/.."
PHP_SDK=${1:-/work/.mirror/klevu+php-sdk/repo}
OUT=tests/data/vendor/php-sdk-validators
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
git --git-dir="$PHP_SDK" archive HEAD src tests | tar -x -C "$TMP"
mkdir -p "$OUT"
php scripts/indexing-parity/harness.php "$TMP" > "$OUT/cases.jsonl"
commit=$(git --git-dir="$PHP_SDK" rev-parse HEAD)
printf '{"package": "klevu/php-sdk", "commit": "%s", "runtime": "%s", "cases": %d}\n' \
  "$commit" "$(php -r 'echo PHP_VERSION;')" "$(wc -l < "$OUT/cases.jsonl")" > "$OUT/source.json"
echo "wrote $(wc -l < "$OUT/cases.jsonl") cases to $OUT"
