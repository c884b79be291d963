#!/usr/bin/python3
# tests/lib/fabric-states.py N DIR [NODE:MTU ...]: writes DIR/node0001.json
# ... DIR/nodeN.json, the state files of N nodes behind one switch: each
# node's rdma0 in 10.0.0.0/16 (node I at 10.0.I/250.I%250+1), MTU 9000,
# RoCE with PFC 3, DSCP 26:3, ToS 106, a boot section, and the items a
# converged node records (boot, modules, links, RoCE, RDMA, files), so a
# file is as large as a real node's. NODE:MTU gives node NODE (1-based)
# another MTU. For tests/integration/cluster-fabric.sh and bench/.
import json
import os
import sys


def items(mtu, addr):
    keys = ['boot/param/iommu', 'boot/param/ttm.pages_limit', 'boot/file/etc/default/grub.d/zz-halo-provision.cfg',
            'module/mlx5_core', 'module/mlx5_ib', 'module/ib_uverbs', 'module/rdma_ucm',
            'link/rdma0/present', 'link/rdma0/mtu', 'link/rdma0/up', 'link/rdma0/addr/' + addr,
            'roce/rdma0/dcbx', 'roce/rdma0/pfc', 'roce/rdma0/trust', 'roce/rdma0/app/26',
            'roce/rdma0/ecn/np/3', 'roce/rdma0/ecn/rp/3', 'rdma/rdma0/device', 'rdma/rdma0/port',
            'rdma/rdma0/gid', 'rdma/rdma0/tos', 'rdma/rdma0/mode',
            'file/etc/udev/rules.d/70-halo-access.rules', 'file/etc/security/limits.d/90-halo-provision.conf',
            'file/etc/systemd/system.conf.d/90-halo-memlock.conf', 'file/etc/nftables.d/halo-provision.nft',
            'file/etc/halo-provision/rccl.env', 'file/etc/sysctl.d/90-halo-provision.conf']
    out = []
    for key in keys:
        value = str(mtu) if key.endswith('/mtu') else 'present'
        out.append({'key': key, 'subsystem': key.split('/')[0].replace('module', 'modules')
                    .replace('link', 'links').replace('file', 'files'),
                    'wanted': value, 'observed': value, 'outcome': 'ok', 'message': None})
    return out


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    odd = dict((int(a.split(':')[0]), int(a.split(':')[1])) for a in sys.argv[3:])
    os.makedirs(out, exist_ok=True)
    for i in range(1, n + 1):
        mtu = odd.get(i, 9000)
        addr = '10.0.%d.%d/16' % (i // 250, i % 250 + 1)
        doc = {
            'schema_version': 1, 'tool': 'halo-provision', 'version': '0.1.0',
            'config': {'path': '/etc/halo-provision/halo.conf', 'digest': '%064x' % i},
            'kernel_release': '6.8.0-51-generic', 'failed': False, 'reboot_required': False,
            'exit_bits': 0,
            'node': {
                'hostname': 'node%04d' % i,
                'interfaces': [{'name': 'rdma0', 'mtu': mtu, 'live_mtu': mtu, 'addresses': [addr],
                                'roce': {'enable': None, 'pfc': [3], 'dscp': ['26:3'], 'tos': 106,
                                         'trust': 'dscp', 'ecn': [3]}}],
                'boot': {'gtt_mib': 126976, 'params': ['iommu=pt', 'ttm.pages_limit=32505856']},
            },
            'items': items(mtu, addr),
        }
        with open(os.path.join(out, 'node%04d.json' % i), 'w') as f:
            json.dump(doc, f, indent=3)
            f.write('\n')


main()
