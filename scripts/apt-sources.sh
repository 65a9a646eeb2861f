#!/bin/sh
# Print, as one-line apt sources, the Debian archive entries of this host's
# own apt configuration: the guest is built from the same mirror the host
# already uses, so no mirror is ever written into the kit. Only entries for
# the suite family given (default bookworm: bookworm, -updates, -security)
# and signed by the Debian archive keyring are kept, which leaves out
# third-party repositories.
set -eu
family=${1:-bookworm}
etc=${APT_ETC:-/etc/apt}

{
	[ -r "$etc/sources.list" ] && cat "$etc/sources.list"
	for f in "$etc"/sources.list.d/*.list; do [ -r "$f" ] && cat "$f"; done
} 2>/dev/null | awk -v fam="$family" '
	/^[ \t]*deb[ \t]/ {
		# one-line form: deb [opts] URI SUITE COMPONENTS...
		i = 2
		if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
		if ($(i + 1) ~ ("^" fam "($|-)")) {
			line = "deb " $i
			for (j = i + 1; j <= NF; j++) line = line " " $j
			print line
		}
	}'

for f in "$etc"/sources.list.d/*.sources; do
	[ -r "$f" ] || continue
	# deb822 form: stanzas separated by blank lines.
	awk -v fam="$family" '
		function flush(   n, u, s, i, j, uris, suites) {
			if (types ~ /(^| )deb( |$)/ && (signed == "" || signed ~ /debian-archive-keyring/)) {
				n = split(u_list, uris, " ")
				split(s_list, suites, " ")
				for (i = 1; i <= n; i++)
					for (j in suites)
						if (suites[j] ~ ("^" fam "($|-)"))
							print "deb " uris[i] " " suites[j] " " comps
			}
			types = u_list = s_list = comps = signed = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		{
			key = tolower($1); sub(/:$/, "", key)
			val = $0; sub(/^[^:]*:[ \t]*/, "", val)
			if (key == "types") types = val
			else if (key == "uris") u_list = val
			else if (key == "suites") s_list = val
			else if (key == "components") comps = val
			else if (key == "signed-by") signed = val
		}
		END { flush() }' "$f"
done
