# Sourced by the scripts that run as root over Debian roots they cache (image.sh, systemd-hosts.sh,
# kubernetes-rehearsal.sh, fresh-debian-rehearsal.sh): a root the cache holds is chrooted into and
# its programs run as root, so whoever can write the cache folder, or rename it away through a
# parent, owns the machine.
#
#   trusted_cache FOLDER
#       Returns 0 when FOLDER and each parent up to /var/cache (or up to / for a folder elsewhere)
#       is owned by root and writable by nobody else; a parent may be writable by all when it is
#       sticky and root's (like /tmp), since others then cannot rename what root made in it.
#       Otherwise prints which folder is wrong and what to do, and returns 1.
#
#   open_cache FOLDER
#       Makes FOLDER if need be, exits 1 unless trusted_cache accepts it, then holds FOLDER/.lock
#       on descriptor 9 for the rest of the script: one builder at a time, a second run waits (at
#       most 30 minutes) and then finds what the first one made.

trusted_cache() {
    local folder path owner mode
    folder=$(realpath -e -- "$1" 2>/dev/null) || {
        echo "${0##*/}: the cache folder $1 does not exist" >&2
        return 1
    }
    path=$folder
    while :; do
        read -r owner mode < <(stat -c '%u %a' -- "$path") || return 1
        mode=$((8#$mode))
        if ((mode & 8#022)) && { [ "$path" = "$folder" ] || ((!(mode & 8#1000))); }; then
            echo "${0##*/}: refusing the cache folder $folder: $path is writable by group or others (mode $(printf %o "$mode"));" \
                "chmod go-w it, or remove the cache to start afresh" >&2
            return 1
        fi
        if [ "$owner" != 0 ]; then
            echo "${0##*/}: refusing the cache folder $folder: $path belongs to uid $owner, not root;" \
                "use a folder only root owns (chown root, chmod go-w), or remove it to start afresh" >&2
            return 1
        fi
        [ "$path" = / ] || [ "$path" = /var/cache ] && return 0
        path=$(dirname -- "$path")
    done
}

open_cache() {
    mkdir -p -- "$1"
    trusted_cache "$1" || exit 1
    exec 9>"$1/.lock"
    flock -w 1800 9 || { echo "${0##*/}: another run holds $1/.lock" >&2; exit 1; }
}
