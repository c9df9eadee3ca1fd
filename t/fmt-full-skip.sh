# t/fmt-full-skip.sh - make check-full's every-float test in a build whose
# configure found no Dragonbox: a skip that says so, rather than
# check-full passing without it.
. "$top_srcdir/t/tap.sh"
skip_all "no Dragonbox: no float32 checked against strtof and Dragonbox\
 (Debian: apt-get install libdragonbox-dev, then configure again)"
