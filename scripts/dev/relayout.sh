#!/usr/bin/env bash
# The core's folder layout (issue 25, docs/ARCHITECTURE.md) as a mapping from the old flat folders
# (core/src/*, core/include/attnsvm/*) to the layer folders, applied with `git mv` so that git's
# rename detection carries later edits of a moved file across a merge. Idempotent: a file already
# in its place is left alone, so it can be re-run after merging branches that still added or
# edited files in the old flat folders:
#   git merge other-branch && bash scripts/dev/relayout.sh && git commit -am "relayout after merge"
# It then
#   1. moves every file of the table (and files matching the patterns below) that is still flat;
#   2. rewrites #include lines and path mentions in every tracked text file (not CHANGELOG.md,
#      which is history): "attnsvm/margin.hpp" -> "attnsvm/solvers/margin.hpp",
#      core/src/train.cpp -> core/src/train/train.cpp, and in core/, tests/ and bench/ the private
#      headers, #include "svd.hpp" -> #include "base/svd.hpp" (includes from the src root);
#      then clang-format on the C++ files it changed (include order, column limit);
#   3. lists the files still flat that neither the table nor a pattern places, and exits 1: add a
#      line to the table (tests/arch/check-deps.mjs fails on any file left flat).
# Options: --dry-run prints the moves only.
set -euo pipefail
cd "$(dirname "$0")/../.."
dry=0
[[ "${1:-}" == "--dry-run" ]] && dry=1

# Public headers: core/include/attnsvm/NAME -> core/include/attnsvm/DIR/NAME
public_table='
base        types.hpp errors.hpp rng.hpp portable_math.hpp portable_math_detail.hpp
data        dataset.hpp real_images.hpp
model       model.hpp
train       train.hpp real_train.hpp
solvers     margin.hpp
analysis    selection.hpp
vocab       names.hpp fields.hpp
experiments experiment.hpp experiment_basin.hpp experiment_md.hpp experiment_prompt.hpp experiment_rank.hpp scenarios.hpp train_batched.hpp real_ladder.hpp real_study.hpp
'
# Sources and private headers: core/src/NAME -> core/src/DIR/NAME
source_table='
base              portable_math.cpp rng.cpp svd.cpp svd.hpp text.hpp
data              dataset.cpp real_idx.cpp real_tokens.cpp
model             model.cpp model_unit.cpp gradient.cpp model_internal.hpp mirror.cpp mirror_internal.hpp
train             train.cpp path.cpp real_train.cpp real_kernel.cpp real_kernel.hpp
solvers           margin_problem.cpp solve.cpp certificate.cpp generalized.cpp solvers_internal.hpp grouped_constraints.cpp grouped_constraints.hpp
solvers/frobenius solver_frobenius.cpp frobenius_decision.cpp min_norm_point.cpp min_norm_point.hpp
solvers/nuclear   solver_nuclear.cpp nuclear_sdp.cpp nuclear_sdp.hpp nuclear_face.cpp
solvers/lp        solver_lp.cpp solver_lp_primal.cpp lp_wspace.cpp dual_interior_point.cpp
analysis          selection.cpp
vocab             names.cpp
experiments       scenarios.cpp train_batched.cpp real_run.cpp experiment_internal.hpp
'
# Files outside the two trees: OLD NEW
other_table='
core/src/cold.hpp core/hints/cold.hpp
'
# Where a file that is in no table goes, by its name (first match wins): PATTERN DIR
source_patterns='
experiment_* experiments
real_run*    experiments
train_batched* experiments
scenario*    experiments
solver_frobenius* solvers/frobenius
frobenius_*  solvers/frobenius
solver_nuclear* solvers/nuclear
nuclear_*    solvers/nuclear
solver_lp*   solvers/lp
lp_*         solvers/lp
solver_*     solvers
real_idx*    data
real_tokens* data
real_train*  train
real_kernel* train
'
public_patterns='
experiment_* experiments
real_ladder* experiments
real_study*  experiments
real_run*    experiments
scenario*    experiments
train_batched* experiments
'

declare -A public_dir source_dir
while read -r dir names; do
  [[ -z "$dir" ]] && continue
  for n in $names; do public_dir[$n]=$dir; done
done <<<"$public_table"
while read -r dir names; do
  [[ -z "$dir" ]] && continue
  for n in $names; do source_dir[$n]=$dir; done
done <<<"$source_table"

pattern_dir() {  # pattern_dir PATTERNS NAME: the folder of the first matching pattern, or nothing
  local name=$2 pat dir
  while read -r pat dir; do
    [[ -z "$pat" ]] && continue
    # shellcheck disable=SC2053
    if [[ "$name" == $pat ]]; then echo "$dir"; return; fi
  done <<<"$1"
}

move() {  # move OLD NEW: git mv unless already moved
  local old=$1 new=$2
  [[ -e "$old" ]] || return 0
  if [[ -e "$new" ]]; then echo "relayout: both $old and $new exist; resolve by hand" >&2; exit 2; fi
  echo "move $old -> $new"
  ((dry)) && return 0
  mkdir -p "$(dirname "$new")"
  git mv "$old" "$new"
}

unplaced=()
# 1. Moves.
while read -r old new; do
  [[ -z "$old" ]] && continue
  move "$old" "$new"
done <<<"$other_table"
for f in core/include/attnsvm/*.hpp; do
  [[ -e "$f" ]] || continue
  n=$(basename "$f")
  [[ "$n" == attnsvm.hpp ]] && continue  # the umbrella header stays at the top
  dir=${public_dir[$n]:-$(pattern_dir "$public_patterns" "$n")}
  if [[ -z "$dir" ]]; then unplaced+=("$f"); continue; fi
  public_dir[$n]=$dir
  move "$f" "core/include/attnsvm/$dir/$n"
done
for f in core/src/*.cpp core/src/*.hpp; do
  [[ -e "$f" ]] || continue
  n=$(basename "$f")
  dir=${source_dir[$n]:-$(pattern_dir "$source_patterns" "$n")}
  if [[ -z "$dir" ]]; then unplaced+=("$f"); continue; fi
  source_dir[$n]=$dir
  move "$f" "core/src/$dir/$n"
done
((dry)) && exit 0

# 2. Rewrites: one perl pass over the tracked text files. The patterns match only the old flat
# spellings (a name directly after attnsvm/ or core/src/), so a second run changes nothing.
map_file=$(mktemp)
trap 'rm -f "$map_file"' EXIT
for n in "${!public_dir[@]}"; do echo "P ${public_dir[$n]} $n"; done >>"$map_file"
for n in "${!source_dir[@]}"; do echo "S ${source_dir[$n]} $n"; done >>"$map_file"
while read -r old new; do [[ -n "$old" ]] && echo "O $new $old"; done <<<"$other_table" >>"$map_file"

git ls-files -z -- '*.cpp' '*.hpp' '*.h' '*.md' '*.txt' '*.cmake' '*.in' '*.sh' '*.mjs' '*.js' '*.json' \
    '*.py' '*.yml' '.clang-format' '.ci/*' |
  grep -zv -e '^CHANGELOG.md$' -e '^package-lock.json$' -e '^scripts/dev/relayout.sh$' -e '^web/public/' |
  MAP="$map_file" xargs -0 perl -i -e '
    BEGIN {
      open(my $m, "<", $ENV{MAP}) or die;
      while (<$m>) {
        my ($kind, $dir, $name) = split;
        if ($kind eq "P") { $pub{$name} = $dir; }
        elsif ($kind eq "S") { $src{$name} = $dir; }
        else { $other{$name} = $dir; }
      }
      $pubre = join("|", map { quotemeta } sort { length($b) <=> length($a) } keys %pub);
      $srcre = join("|", map { quotemeta } sort { length($b) <=> length($a) } keys %src);
      $privre = join("|", map { quotemeta } grep { /\.hpp$/ } sort { length($b) <=> length($a) } keys %src);
    }
    while (<>) {
      my $private_ok = $ARGV =~ m{^(core|tests|bench)/};
      s{\battnsvm/($pubre)(?![\w.])}{attnsvm/$pub{$1}/$1}g;
      s{\bcore/src/($srcre)(?![\w.])}{core/src/$src{$1}/$1}g;
      for my $o (keys %other) { my $q = quotemeta($o); s{\b$q(?![\w.])}{$other{$o}}g; }
      s{^(\s*#\s*include\s+")($privre)"}{$1$src{$2}/$2"} if $private_ok;
      print;
    }
    continue { close ARGV if eof; }'

# The rewritten includes sort differently (clang-format sorts each block) and a longer path can
# push a comment past the column limit: format the C++ files the rewrite changed, so that
# `npm run lint` stays clean.
mapfile -t changed < <(git diff --name-only -- '*.cpp' '*.hpp')
if ((${#changed[@]})) && command -v clang-format >/dev/null; then clang-format -i "${changed[@]}"; fi

# 3. Anything still flat.
if ((${#unplaced[@]})); then
  echo "relayout: no place for these files (add them to a table above):" >&2
  printf '  %s\n' "${unplaced[@]}" >&2
  exit 1
fi
echo "relayout: done"
