#!/usr/bin/env bash
# The lesson gallery: every lesson drawn as it opens (`render --preset ID`, the lesson's own
# view; a timing lesson's bars, modeled) into docs/gallery/, and docs/gallery.md listing them
# in the curriculum's order with their titles and summaries (`threadmap lessons --format json`).
# Usage: scripts/lesson-gallery.sh [BUILD_DIR]   (default build; no display needed)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}/app/threadmap
mkdir -p docs/gallery
rm -f docs/gallery/*.png
"$bin" lessons --format json > /tmp/threadmap-lessons.$$.json
trap 'rm -f /tmp/threadmap-lessons.$$.json' EXIT
python3 - /tmp/threadmap-lessons.$$.json > /tmp/threadmap-lessons.$$.tsv <<'PY'
import json, sys
for l in json.load(open(sys.argv[1]))["lessons"]:
    print("\t".join([l["id"], l["opens_on"]]))
PY
while IFS=$'\t' read -r id tab; do
  if [ "$tab" = timing ]; then extra=(--timing --backend model); else extra=(); fi
  env -u DISPLAY "$bin" render --preset "$id" "${extra[@]}" --size 960x540 --out "docs/gallery/$id.png"
done < /tmp/threadmap-lessons.$$.tsv
rm -f /tmp/threadmap-lessons.$$.tsv
python3 - /tmp/threadmap-lessons.$$.json > docs/gallery.md <<'PY'
import json, sys
lessons = json.load(open(sys.argv[1]))["lessons"]
print("# Lesson gallery\n")
print("Every lesson as it opens: `threadmap render --preset ID` draws the lesson's own view (its")
print("colour mode, mapped array, access, phase and shared block); a timing lesson its modeled bars")
print("(`--timing --backend model`). The window opens on the same picture, with the lesson card above")
print("it. Made by `scripts/lesson-gallery.sh`; `threadmap lessons` lists the same curriculum.\n")
group = None
for l in lessons:
    if l["group"] != group:
        group = l["group"]
        print(f"## {group}\n")
    print(f"### {l['order']}. {l['title']}\n")
    print(f"`--preset {l['id']}` · opens on the {l['opens_on']} tab · {l['summary']}\n")
    print(f"![{l['id']}](gallery/{l['id']}.png)\n")
PY
echo "wrote docs/gallery.md and docs/gallery/*.png ($(ls docs/gallery | wc -l) images)"
