#include "gpu_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "arc_unit_fast.h"
#include "arc_unit_rtl.h"

namespace arc::sim {

GpuModel::GpuModel(sc_core::sc_module_name name, const RunSpec& spec, const TraceSummary& trace,
                   const Workload& work, InstrSource& source)
    : sc_module(name),
      spec_(spec),
      image_(trace.header.buffer_words, 0, dense_words(trace)),
      words_(trace.header.buffer_words, dense_words(trace)),
      // A coalesced request goes to one unit: the hash slices on at least the coalescing granule.
      hash_(spec.gpu.addr_hash, static_cast<uint32_t>(spec.gpu.rop_units),
            static_cast<uint32_t>(std::max(spec.knobs.rop_slice_bytes, spec.gpu.coalesce_bytes))) {
  const auto& g = spec.gpu;
  const uint32_t sms = static_cast<uint32_t>(g.sms), per_sm = static_cast<uint32_t>(g.subcores_per_sm);
  log_.enabled = spec.record_commits;
  image_.set_arith(fp::Arith::Native);  // timing path: host FPU, bit-identical to MPFR (tests/fp)

  RopSetup rs;
  rs.ops_per_cycle = static_cast<uint32_t>(g.rop_ops_per_cycle);
  rs.latency = static_cast<uint32_t>(g.rop_latency);
  rs.same_addr_sub = static_cast<uint64_t>(std::llround(spec.knobs.rop_same_addr_interval * double(kSubCycles)));
  rs.window = static_cast<uint32_t>(spec.knobs.rop_window);
  rs.same_line_sub = static_cast<uint64_t>(std::llround(spec.knobs.rop_same_line_interval * double(kSubCycles)));
  rs.line_words = static_cast<uint32_t>(std::max<int64_t>(1, g.coalesce_bytes / 4));
  rs.line_op_sub = static_cast<uint64_t>(std::llround(spec.knobs.rop_line_op_interval * double(kSubCycles)));
  rs.slice_request_sub =
      static_cast<uint64_t>(std::llround(spec.knobs.rop_slice_request_interval * double(kSubCycles)));
  rs.slices = static_cast<uint32_t>(spec.knobs.rop_slices);
  if (g.coalesce_bytes > 0 && (rs.same_line_sub > 0 || rs.line_op_sub > 0))  // per line: when its next request may start
    lines_.assign((trace.header.buffer_words + rs.line_words - 1) / rs.line_words, Registered<uint64_t>{});
  rs.slice_op_sub = static_cast<uint64_t>(std::llround(spec.knobs.rop_slice_op_interval * double(kSubCycles)));
  rs.slice_queue_sub = static_cast<uint64_t>(spec.knobs.rop_slice_queue_cycles) * kSubCycles;
  if (rs.slice_op_sub > 0)
    rs.slice_gap_sub = fifo_gap_table(spec.knobs.rop_slice_op_interval, spec.knobs.rop_same_addr_interval, kSubCycles);
  if (rs.slices > 0 && (rs.slice_request_sub > 0 || rs.slice_op_sub > 0) && g.coalesce_bytes > 0)
    slices_.assign(rs.slices, Registered<SliceState>{});
  rs.flit_bytes = static_cast<uint32_t>(g.flit_bytes);
  rs.coalesced = g.coalesce_bytes > 0;
  rs.values = !trace.header.timing_only;
  stats_.flit_bytes = static_cast<uint64_t>(g.flit_bytes);
  for (int64_t r = 0; r < g.rop_units; ++r)
    rops_.push_back(std::make_unique<RopUnit>(fmt::format("rop{}", r).c_str(), static_cast<uint32_t>(r), rs, image_, log_,
                                             words_, lines_, slices_, stats_));

  IcntSetup is;
  is.sms = sms;
  is.rops = static_cast<uint32_t>(g.rop_units);
  is.flits_per_cycle = static_cast<uint32_t>(g.icnt_flits_per_cycle);
  is.latency = static_cast<uint32_t>(g.icnt_latency);
  is.eject_per_cycle = static_cast<uint32_t>(spec.knobs.icnt_eject_per_cycle);
  is.flit_bytes = static_cast<uint32_t>(g.flit_bytes);
  is.l2_bytes_per_cycle = static_cast<uint32_t>(spec.knobs.l2_input_bytes_per_cycle);
  is.input_depth = std::max<uint32_t>(is.flits_per_cycle, static_cast<uint32_t>(g.lsu_issue_per_cycle));
  is.gpc.of_sm = config::gpc_of_sm(g);
  is.gpc.bytes = config::gpc_bytes_per_cycle(g);
  is.gpc.header_bytes = static_cast<uint32_t>(g.icnt_gpc_header_bytes);
  is.group.of_sm = config::group_of_sm(g);
  is.group.bytes = config::group_bytes_per_cycle(g);
  is.group.header_bytes = static_cast<uint32_t>(g.icnt_group_header_bytes);
  icnt_ = std::make_unique<Icnt>("icnt", is);
  icnt_->word_state = std::as_const(words_).data();  // (const: a hint marks no page touched)
  for (size_t r = 0; r < rops_.size(); ++r) {
    rops_[r]->in.set_capacity(static_cast<size_t>(rop_queue_depth(spec)));
    rops_[r]->in.bind(&rops_[r]->wake, &icnt_->wake);
    icnt_->attach_rop(static_cast<uint32_t>(r), rops_[r]->in);
  }

  LsuSetup ls;
  ls.ports = per_sm;
  ls.depth = static_cast<uint32_t>(g.lsu_queue_depth);
  ls.issue_per_cycle = static_cast<uint32_t>(g.lsu_issue_per_cycle);
  ls.busy_slack = static_cast<uint32_t>(spec.knobs.lsu_busy_slack);
  ls.cycles_per_instruction = static_cast<uint32_t>(spec.knobs.lsu_cycles_per_instruction);
  ls.every_cycle = spec.lsu_every_cycle;
  SubCoreSetup ss;
  ss.mode = spec.mode;
  ss.warps_resident = work.warps_resident;
  ss.cost.mode = spec.mode;
  ss.cost.sw_overhead = static_cast<uint32_t>(g.sw_overhead);
  ss.cost.sws_per_key = static_cast<uint32_t>(spec.knobs.sws_cycles_per_key);
  ss.cost.sws_per_lane = static_cast<uint32_t>(spec.knobs.sws_cycles_per_lane);
  ss.cost.sws_per_lane_param = static_cast<uint32_t>(spec.knobs.sws_cycles_per_lane_param);
  ss.cost.swb_per_param = static_cast<uint32_t>(spec.knobs.swb_cycles_per_param);
  ss.cost.threshold = spec.threshold;
  ss.cost.inst_overhead = static_cast<uint32_t>(spec.knobs.sw_inst_overhead);
  ss.cost.swb_inst_per_param = static_cast<uint32_t>(spec.knobs.swb_inst_per_param);
  ss.cost.sws_inst_per_lane = static_cast<uint32_t>(spec.knobs.sws_inst_per_lane);
  ss.cost.sws_inst_per_lane_param = static_cast<uint32_t>(spec.knobs.sws_inst_per_lane_param);
  ss.cost.tree_inst_per_level = static_cast<uint32_t>(spec.knobs.tree_inst_per_level);
  ss.cost.tree_inst_per_level_param = static_cast<uint32_t>(spec.knobs.tree_inst_per_level_param);
  ss.threshold = spec.threshold;
  ss.vector = spec.vector;
  ss.gap_issue_rate = spec.gap_issue_rate;
  ss.sw_ftz = trace.header.reduce_ftz ? fp::FtzMode::Flush : fp::FtzMode::Keep;
  ss.coalesce.granule_words = static_cast<uint32_t>(g.coalesce_bytes / 4);
  ss.coalesce.flit_bytes = static_cast<uint32_t>(g.flit_bytes);
  ss.coalesce.header_bytes = static_cast<uint32_t>(g.request_header_bytes);
  ss.coalesce.word_bytes = static_cast<uint32_t>(g.request_word_bytes);
  ss.coalesce.sector_bytes = static_cast<uint32_t>(g.request_sector_bytes);
  ss.coalesce.multi_lane_bytes = static_cast<uint32_t>(g.request_multi_lane_bytes);
  const ModelKnobs& kn = spec.knobs;
  if (kn.l2_request_header_bytes >= 0) ss.coalesce.l2_header_bytes = static_cast<uint32_t>(kn.l2_request_header_bytes);
  if (kn.l2_request_sector_bytes >= 0) ss.coalesce.l2_sector_bytes = static_cast<uint32_t>(kn.l2_request_sector_bytes);
  ss.coalesce.instruction_bytes = static_cast<uint32_t>(kn.l2_instruction_bytes);
  ss.coalesce.runs = trace.header.timing_only && !spec.record_commits && !sm_buffered(spec.mode);
  ss.zero_values = trace.header.timing_only;
  ss.read_lanes = spec.read_lanes;
  ArcUnitSetup as;
  as.sched.mode = spec.sched;
  as.sched.threshold = spec.threshold;
  as.sched.adder_ftz = fp::FtzMode::Flush;  // the RTL top is built with FTZ=1 (red.add.f32)
  as.link_request_bytes = g.coalesce_bytes > 0 ? round_bytes(1, 1, 1, ss.coalesce) : static_cast<uint32_t>(g.flit_bytes);
  as.request_bytes = (g.coalesce_bytes > 0 ? l2_round_bytes(1, 1, 1, ss.coalesce) : static_cast<uint32_t>(g.flit_bytes)) +
                     ss.coalesce.instruction_bytes;
  as.sched.arith = fp::Arith::Native;       // fast level: host FPU sums (the RTL level uses its adder)
  as.pass_coalesce = spec.knobs.arc_pass_coalesce != 0;
  as.coalesce = ss.coalesce;

  BufferSetup bs = buffer_setup(spec, ss.coalesce, !trace.header.timing_only);
  for (uint32_t sm = 0; sm < sms; ++sm) {
    ls.sm = sm;
    auto lsu = std::make_unique<Lsu>(fmt::format("sm{}_lsu", sm).c_str(), ls, hash_, stats_);
    lsu->to_icnt = &icnt_->from_sm[sm];
    lsu->icnt = icnt_.get();
    icnt_->from_sm[sm].bind(&icnt_->wake, &lsu->wake);
    AtomicBuffer* buf = nullptr;
    if (sm_buffered(spec.mode)) {  // the SM's atomics pass its buffer, whose evictions use LSU port 0
      bs.sm = sm;
      buffers_.push_back(std::make_unique<AtomicBuffer>(fmt::format("sm{}_buf", sm).c_str(), bs, stats_));
      buf = buffers_.back().get();
      buf->out = &lsu->ports[0];
      buf->out->bind(&lsu->wake, &buf->wake);
    }
    for (uint32_t s = 0; s < per_sm; ++s) {
      ss.sm = sm;
      ss.subcore = sm * per_sm + s;
      ss.plant_lost_wakeup = spec.plant_lost_wakeup && sm == 0 && s == 0;
      auto sc = std::make_unique<SubCore>(fmt::format("sm{}_sc{}", sm, s).c_str(), ss, work.at(sm, s), source, stats_);
      Link<Packet>& port = lsu->ports[s];
      if (spec.mode == Mode::ArcHw) {
        as.sm = sm;
        const std::string an = fmt::format("sm{}_arc{}", sm, s);
        std::unique_ptr<ArcUnit> arc;
        if (spec.fidelity == Fidelity::Rtl) arc = make_arc_unit_rtl(an.c_str(), as, stats_);
        else arc = std::make_unique<ArcUnitFast>(an.c_str(), as, stats_);
        arc->in.bind(&arc->wake, &sc->wake);
        arc->in.set_room_hint(&SubCore::room_hint, sc.get());
        arc->out = &port;
        arc->busy = &lsu->busy;
        port.bind(&lsu->wake, &arc->wake);
        sc->to_arc = &arc->in;
        arcs_.push_back(std::move(arc));
      } else if (buf) {
        Link<Packet>& bp = *buf->ports[s];
        bp.bind(&buf->wake, &sc->wake);
        bp.set_room_hint(&SubCore::room_hint, sc.get());
        sc->to_lsu = &bp;
        buf->cores.push_back(sc.get());
      } else {
        port.bind(&lsu->wake, &sc->wake);
        port.set_room_hint(&SubCore::room_hint, sc.get());
        sc->to_lsu = &port;
      }
      subcores_.push_back(std::move(sc));
    }
    lsus_.push_back(std::move(lsu));
  }
}

void GpuModel::finish() {
  Cycle end = stats_.issue_end_cycle + 1;
  for (const auto& r : rops_) end = std::max(end, r->last_done() + 1);
  stats_.total_cycles = stats_.instructions ? end : 0;
  for (auto& l : lsus_) l->finish(end);
  for (auto& c : subcores_) c->finish();
}

}  // namespace arc::sim
