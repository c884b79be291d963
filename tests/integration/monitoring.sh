#!/bin/bash
# The monitoring kit: the alert rules (docs/prometheus-alerts.yml) and the
# Grafana dashboard (docs/grafana/halo-provision.json), checked with
# Prometheus' own promtool. Every alert fires where it should and stays
# quiet where it should (`promtool test rules` over a simulated fleet);
# every PromQL expression of the dashboard parses (each one a recording
# rule of a throwaway rule file that `promtool check rules` reads) and the
# stat panels count the simulated fleet right; both use only series a real
# run's textfile has; the dashboard is ready to import and to provision.
source "${top_srcdir:?}/tests/lib/tap.sh" || exit 1

PROMTOOL=/usr/bin/promtool
if [ ! -x "$PROMTOOL" ]; then
	echo "Bail out! $PROMTOOL missing: install prometheus"
	exit 1
fi
RULES=$top_srcdir/docs/prometheus-alerts.yml
DASH=$top_srcdir/docs/grafana/halo-provision.json
PROVIDER=$top_srcdir/docs/grafana/provisioning.yml

# promtool_ok CMD... DESCRIPTION: promtool succeeds (its output otherwise).
promtool_ok() {
	local desc=${*: -1} msg r
	msg=$("$PROMTOOL" "${@:1:$#-1}" 2>&1)
	r=$?
	ok $r "$desc"
	[ $r -eq 0 ] || diag "$msg"
}

promtool_ok check rules "$RULES" "promtool check rules: the alert rules"
is "$(grep -c '^      - alert: ' "$RULES")" 7 "seven alerts"

# --- the series the kit uses are the textfile's ---
R=$TEST_TMP/root
"$top_srcdir/sandbox/mkroot.sh" debian "$R" >/dev/null
write_conf "$R/etc/halo-provision/halo.conf" <<'CONF'
version = 1;
boot = { iommu = "pt"; };
state = { prometheus = "/var/lib/prometheus/node-exporter/halo-provision.prom"; };
CONF
run_halo --root "$R" --check
PROM=$R/var/lib/prometheus/node-exporter/halo-provision.prom
ok "$([ -s "$PROM" ]; echo $?)" "a --check wrote the textfile"
missing=
for name in $(cat "$RULES" "$DASH" | grep -o 'halo_[a-z_]*' | grep -v '^halo_provision' | sort -u); do
	grep -q "^# TYPE $name " "$PROM" || missing+=" $name"
done
is "$missing" "" "the alerts and the dashboard use only series the textfile has"

# --- every alert, firing and quiet ---
# A fleet scraped every minute (job "node"): n1 in sync; n2's runs stop at
# minute 30; n3's MTU drifts from minute 10; n4 only waits for a reboot;
# n5 has a failed item from minute 10 (and no drift); n6 has two warnings;
# n7's exporter has no halo-provision series at all; n8's textfile
# vanishes at minute 30; n10 drifts on its MTU from minute 10 while its
# iommu parameter waits for a reboot.
series() { # series NAME{LABELS} VALUES
	printf "      - series: '%s'\n        values: '%s'\n" "$1" "$2"
}
node() { # node N [TIMESTAMPS] [IN_SYNC_KEY IN_SYNC] [DRIFT] [PENDING] [FAILED] [WARNINGS]
	local n=$1 l="instance=\"$1\",job=\"node\""
	series "up{$l}" '1x120'
	series "halo_last_run_timestamp_seconds{$l}" "${2:-0+60x120}"
	series "halo_item_in_sync{$l,key=\"${3:-link/rdma0/mtu}\",subsystem=\"links\"}" "${4:-1x120}"
	series "halo_item_drift{$l,key=\"${3:-link/rdma0/mtu}\",subsystem=\"links\"}" "${5:-0x120}"
	series "halo_items{$l,outcome=\"drift\"}" "${5:-0x120}"
	series "halo_items{$l,outcome=\"pending-reboot\"}" "${6:-0x120}"
	series "halo_items{$l,outcome=\"failed\"}" "${7:-0x120}"
	series "halo_warnings{$l}" "${8:-0x120}"
}
alert() { # alert MINUTES NAME [INSTANCE LABELS...]: the alerts expected firing
	printf '      - eval_time: %sm\n        alertname: %s\n' "$1" "$2"
	shift 2
	if [ $# -eq 0 ]; then
		echo "        exp_alerts: []"
		return
	fi
	echo "        exp_alerts:"
	while [ $# -gt 0 ]; do
		printf '          - exp_labels: {%s}\n            exp_annotations:\n' "$1"
		shift
		while [ $# -gt 0 ] && [ "${1#*: }" != "$1" ] && [ "${1%%:*}" != severity ]; do
			printf '              %s\n' "$1"
			shift
		done
	done
}
STALE_DESC="Check the halo-provision-check.timer and halo-provision-check.service units (a config error fails the unit with exit 1)."
MISSING_DESC="Set state.prometheus in /etc/halo-provision/halo.conf to a .prom file in node_exporter's textfile directory and check halo-provision-check.timer."
ABSENT_DESC="See prometheus.md in /usr/share/doc/halo-provision/docs for the textfile's path."
FLEET=$(
	node n1
	node n2 '0+60x30 1800+0x90'
	node n3 '' link/rdma0/mtu '1x10 0x110' '0x10 1x110'
	node n4 '' boot/param/iommu '0x120' '' '1x120'
	node n5 '' link/rdma0/up '0x120' '' '' '0x10 1x110'
	node n6 '' '' '' '' '' '' '2x120'
	node n10 '' link/rdma0/mtu '1x10 0x110' '0x10 1x110' '1x120'
	series 'halo_item_in_sync{instance="n10",job="node",key="boot/param/iommu",subsystem="boot"}' '0x120'
	series 'halo_item_drift{instance="n10",job="node",key="boot/param/iommu",subsystem="boot"}' '0x120'
	series 'up{instance="n7",job="node"}' '1x120'
	series 'up{instance="n8",job="node"}' '1x120'
	series 'halo_last_run_timestamp_seconds{instance="n8",job="node"}' '0+60x30 stale'
)
{
	echo "rule_files: [$RULES]"
	echo "evaluation_interval: 1m"
	echo "tests:"
	echo "  - interval: 1m"
	echo "    input_series:"
	echo "$FLEET"
	echo "    alert_rule_test:"
	alert 20 HaloProvisionItemsFailed
	alert 30 HaloProvisionItemsFailed 'severity: critical, instance: n5, job: node, outcome: failed' \
		'summary: "1 halo-provision item(s) failed on n5"'
	alert 50 HaloProvisionTextfileMissing
	alert 50 HaloProvisionItemNotInSync
	alert 50 HaloProvisionWarnings
	alert 75 HaloProvisionItemNotInSync \
		'severity: warning, instance: n3, job: node, key: link/rdma0/mtu, subsystem: links' \
		'summary: "link/rdma0/mtu is not in sync on n3"' \
		'description: "halo-provision --check reports drift on n3; link/rdma0/mtu (links) is out of sync. halo-provision --check -v there lists every item."' \
		'severity: warning, instance: n10, job: node, key: link/rdma0/mtu, subsystem: links' \
		'summary: "link/rdma0/mtu is not in sync on n10"' \
		'description: "halo-provision --check reports drift on n10; link/rdma0/mtu (links) is out of sync. halo-provision --check -v there lists every item."'
	alert 75 HaloProvisionWarnings 'severity: info, instance: n6, job: node' \
		'summary: "halo-provision reports 2 warning(s) on n6; see halo-provision --check"'
	alert 75 HaloProvisionTextfileMissing 'severity: warning, instance: n7, job: node' \
		'summary: "n7 exports no halo-provision series"' "description: \"$MISSING_DESC\""
	alert 90 HaloProvisionStale
	alert 100 HaloProvisionStale 'severity: warning, instance: n2, job: node' \
		'summary: "halo-provision has not completed a run on n2 for 1h 10m 0s"' "description: \"$STALE_DESC\""
	alert 100 HaloProvisionTextfileMissing 'severity: warning, instance: n7, job: node' \
		'summary: "n7 exports no halo-provision series"' "description: \"$MISSING_DESC\"" \
		'severity: warning, instance: n8, job: node' \
		'summary: "n8 exports no halo-provision series"' "description: \"$MISSING_DESC\""
	alert 100 HaloProvisionRebootPending
	alert 100 HaloProvisionAbsent
	# A day later: n4 still waits for its reboot.
	echo "  - interval: 1m"
	echo "    input_series:"
	series 'halo_items{instance="n4",job="node",outcome="pending-reboot"}' '1x1560'
	series 'halo_items{instance="n1",job="node",outcome="pending-reboot"}' '0x1560'
	echo "    alert_rule_test:"
	alert 1380 HaloProvisionRebootPending
	alert 1500 HaloProvisionRebootPending 'severity: info, instance: n4, job: node, outcome: pending-reboot' \
		'summary: "n4 needs a reboot to match its halo-provision config"'
	# A fleet where no node exports the series.
	echo "  - interval: 1m"
	echo "    input_series:"
	series 'up{instance="n9",job="node"}' '1x120'
	echo "    alert_rule_test:"
	alert 50 HaloProvisionAbsent
	alert 70 HaloProvisionAbsent 'severity: warning' \
		"summary: \"No node exports halo-provision's textfile series\"" "description: \"$ABSENT_DESC\""
} >"$TEST_TMP/alerts.test.yml"
promtool_ok test rules "$TEST_TMP/alerts.test.yml" \
	"promtool test rules: every alert fires where it should and stays quiet where it should"

# The same test fails when a rule is wrong: ItemNotInSync on every item
# out of sync on a node with drift (there, a pending reboot raises it too).
sed 's/halo_item_drift == 1/halo_item_in_sync == 0 and on(instance, job) halo_items{outcome="drift"} > 0/' \
	"$RULES" >"$TEST_TMP/loose.yml"
sed "s|^rule_files: .*|rule_files: [$TEST_TMP/loose.yml]|" "$TEST_TMP/alerts.test.yml" >"$TEST_TMP/loose.test.yml"
"$PROMTOOL" test rules "$TEST_TMP/loose.test.yml" >"$TEST_TMP/loose.out" 2>&1
ok "$([ $? -ne 0 ] && grep -q 'boot/param/iommu' "$TEST_TMP/loose.out"; echo $?)" \
	"promtool test rules fails a rule that alerts on a pending reboot as drift"

# --- the dashboard ---
ok "$(jq -e . "$DASH" >/dev/null; echo $?)" "the dashboard is JSON"
is "$(jq -c '[.uid, .id, .title, (.__inputs // "none")]' "$DASH")" '["halo-provision",null,"halo-provision","none"]' \
	"provisioning-ready: a fixed uid, no id, no import-only inputs"
is "$(jq -r '.templating.list[] | select(.name == "datasource") | "\(.type) \(.query)"' "$DASH")" \
	"datasource prometheus" "it asks for its Prometheus data source (a variable)"
is "$(jq -c '[.panels[] | .datasource, .targets[].datasource] | unique' "$DASH")" \
	'[{"type":"prometheus","uid":"${datasource}"}]' "every panel and query uses that variable"
is "$(jq -c '[.panels[].id] | [length, (unique | length)]' "$DASH")" "[12,12]" "twelve panels, each its own id"
is "$(jq -r '[.panels[].title] | join(", ")' "$DASH")" \
	"Nodes reporting, Nodes without the textfile, Stale nodes, Keys out of sync, Nodes pending a reboot, Nodes with failed items, Age of the last audit, Items by outcome, Keys out of sync, Pending reboots, Failed runs, Nodes" \
	"per node: the age of the last audit, items by outcome, keys out of sync, pending reboots, failed runs"
# Grafana's variables, as a query of every node sends them.
promql() { jq -r "$1"' | gsub("\\$job"; "node") | gsub("\\$instance"; ".*")' "$DASH"; }
is "$(promql '.panels[].targets[].expr' | grep -c '\$')" 0 "every variable of the expressions is known"
# A throwaway rule file: each expression a recording rule.
rulefile() { # rulefile JQ_FILTER_OF_EXPRESSIONS
	jq "{groups: [{name: \"dashboard\", rules: [$1 | gsub(\"\\\\\$job\"; \"node\") | gsub(\"\\\\\$instance\"; \".*\")]
		| to_entries | map({record: \"halo_dashboard:expr_\\(.key)\", expr: .value})}]}" "$DASH"
}
rulefile '.panels[].targets[].expr' >"$TEST_TMP/dashboard.rules.json"
is "$(jq '.groups[0].rules | length' "$TEST_TMP/dashboard.rules.json")" "$(jq '[.panels[].targets[]] | length' "$DASH")" \
	"a rule for each of the dashboard's queries"
promtool_ok check rules "$TEST_TMP/dashboard.rules.json" "promtool parses every PromQL expression of the dashboard"
rulefile '(.panels[].targets[].expr | sub("\\) or vector"; " or vector"))' >"$TEST_TMP/broken.rules.json"
"$PROMTOOL" check rules "$TEST_TMP/broken.rules.json" >/dev/null 2>&1
ok "$([ $? -ne 0 ]; echo $?)" "... and refuses an expression with a syntax error"
# The stat panels count the fleet above right, at minute 100.
{
	echo "rule_files: []"
	echo "evaluation_interval: 1m"
	echo "tests:"
	echo "  - interval: 1m"
	echo "    input_series:"
	echo "$FLEET"
	echo "    promql_expr_test:"
	for stat in "Nodes reporting:7" "Nodes without the textfile:2" "Stale nodes:1" "Keys out of sync:5" \
		"Nodes pending a reboot:2" "Nodes with failed items:1"; do
		expr=$(promql ".panels[] | select(.type == \"stat\" and .title == \"${stat%:*}\") | .targets[0].expr")
		printf "      - expr: '%s'\n        eval_time: 100m\n        exp_samples:\n          - labels: '{}'\n            value: %s\n" \
			"$expr" "${stat##*:}"
	done
} >"$TEST_TMP/stats.test.yml"
promtool_ok test rules "$TEST_TMP/stats.test.yml" \
	"the stat panels count the fleet: 7 reporting, 2 without the textfile, 1 stale, 5 keys out of sync, 2 pending a reboot, 1 failed"
is "$(sed -n 's/^      path: //p' "$PROVIDER")" /usr/share/halo-provision/grafana \
	"the provisioning file loads the installed dashboard's directory"

done_testing
