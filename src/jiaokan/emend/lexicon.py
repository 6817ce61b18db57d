"""The lexicon of the 案 note language: the words and tables the grammar is built from.

Data only, no parsing: :mod:`jiaokan.emend.notes` builds its rules from these lists (as
regular-expression alternations, longest name first) and reads notes with them.  Every
list is written in *simplified* characters, because the grammar matches a folded copy of
the note (:data:`EXTRA_FOLD` plus OpenCC ``t2s``): a note written 宋夲 or 據 is read with
the same words as one written 宋本 or 据.  To teach the parser a new witness, source or
verb, add it here; the rules pick it up.
"""

from __future__ import annotations

__all__ = [
    "WITNESSES",
    "SOURCES",
    "EXTRA_FOLD",
    "EMENDATION_VERBS",
    "CORRECTING_VERBS",
    "SCOPE_BELOW",
    "SCOPE_ZHU",
    "JUDGEMENT_OPENERS",
    "REJECTIONS",
    "LAYER_OF_PREFIX",
    "SHARED_FORMS",
    "INCLUDES_ZHUSHU",
    "FORMULA_SLIPS",
]

#: Witness names a claim can be *about* (folded, simplified) -> target id.
#: 监本 and 今本 are filed under ``zhushu`` (the 注疏 line our ZS witness belongs to);
#: the name as written stays in ``target_name``.
WITNESSES: dict[str, str] = {
    "今注疏本": "zhushu",
    "注疏本": "zhushu",
    "今本注疏": "zhushu",
    "今注疏": "zhushu",
    "监本注疏": "zhushu",
    # OCR slips of the formula in the 文渊阁 transcription (今注疏木: 本 read as 木)
    "今注疏木": "zhushu",
    # 周学健, the 四库 editor of the 注疏 (臣学健按 in its 考证): X周学健改作Y = our 注疏 reads Y
    "周学健": "zhushu",
    "注疏木": "zhushu",
    # the 明 北监本 注疏: an edition of the 注疏 line, but not the 四库 注疏 we hold
    "明监本注疏": "mingjianben",
    "明监本": "mingjianben",
    "北监本": "zhushu",
    "监本": "zhushu",
    "今本": "zhushu",
    "原本": "yuanben",
    "原书": "yuanben",
    "永乐大典本": "yuanben",
    "大典本": "yuanben",
    "唐石经": "tangshijing",
    "开成石经": "tangshijing",
    "石经": "tangshijing",
    "宋本": "songben",
    "宋木": "songben",  # OCR slip, as 今注疏木 (據宋木改正, 卷九)
    "宋板": "songben",
    "宋椠本": "songben",
    "宋椠": "songben",
    "宋刻本": "songben",
    "宋刊本": "songben",
    "释文": "shiwen",
    "毛本": "maoben",
    "汲古阁本": "maoben",
    "闽本": "minben",
    "敖本": "aojigong",
    "敖继公本": "aojigong",
    "朱子仪礼经传通解本": "tongjie",
    "仪礼经传通解本": "tongjie",
    "经传通解本": "tongjie",
    "通解本": "tongjie",
    "古本": "guben",
    "诸本": "zhuben",
    "各本": "zhuben",
}

#: Sources a note cites as evidence (folded, simplified) -> source id.  Witnesses can be
#: cited too.  A compound "<source>疏" / "<source>注" (鄉飲酒禮疏) is a 疏 / 注 citation.
SOURCES: dict[str, str] = {
    **WITNESSES,
    "永乐大典": "yuanben",
    "经典释文": "shiwen",
    "陆德明": "shiwen",
    "音义": "shiwen",
    "敖继公": "aojigong",
    "敖氏": "aojigong",
    "仪礼集说": "aojigong",
    "集说": "aojigong",
    "贾公彦": "shu",
    "贾疏": "shu",
    "贾氏": "shu",
    "疏文": "shu",
    "疏": "shu",
    "郑注": "zhu",
    "郑玄": "zhu",
    "郑康成": "zhu",
    "郑氏": "zhu",
    "注文": "zhu",
    "注": "zhu",
    "经文": "jing",
    "考工记": "kaogongji",
    "周礼": "zhouli",
    "周官": "zhouli",
    "礼记": "liji",
    "说文": "shuowen",
    "尔雅": "erya",
    "毛诗": "shijing",
    "公羊传": "gongyang",
    "谷梁传": "guliang",
    "穀梁传": "guliang",
    "左传": "zuozhuan",
    "仪礼经传通解": "tongjie",
    "经传通解": "tongjie",
    "通解": "tongjie",
    "朱子": "tongjie",
    "朱熹": "tongjie",
    "杨复": "yangfu",
    "张淳": "zhangchun",
    "仪礼识误": "zhangchun",
    "仪礼图": "yangfu",
    "通典": "tongdian",
    "杜佑": "tongdian",
    "诗": "shijing",
    "丧大记": "liji",
    "三礼图": "sanlitu",
    "聂崇义": "sanlitu",
    "士冠礼": "shiguanli",
    "士昏礼": "shihunli",
    "士相见礼": "shixiangjianli",
    "乡饮酒礼": "xiangyinjiuli",
    "乡饮酒": "xiangyinjiuli",
    "乡射礼": "xiangsheli",
    "乡射": "xiangsheli",
    "燕礼": "yanli",
    "大射仪": "dasheyi",
    "大射礼": "dasheyi",
    "大射": "dasheyi",
    "聘礼": "pinli",
    "公食大夫礼": "gongshidafuli",
    "觐礼": "jinli",
    "丧服": "sangfu",
    "士丧礼": "shisangli",
    "既夕礼": "jixili",
    "既夕": "jixili",
    "士虞礼": "shiyuli",
    "特牲馈食礼": "teshengkuishili",
    "特牲": "teshengkuishili",
    "少牢馈食礼": "shaolaokuishili",
    "少牢": "shaolaokuishili",
    "有司彻": "yousiche",
}

#: Characters that OpenCC ``t2s`` does not fold but these texts use as variants.
EXTRA_FOLD: dict[str, str] = {
    "夲": "本",
    "𥙷": "补",
    "郷": "乡",
    "鄕": "乡",
    "脫": "脱",
    "譌": "讹",
    "爲": "为",
    "內": "内",
    "説": "说",
    "竝": "并",
    "並": "并",
    "攷": "考",
    "刪": "删",
    "闕": "阙",
    "葢": "盖",
    "蓋": "盖",
    "於": "于",
    "按": "案",
    "據": "据",
    "拠": "据",
    "當": "当",
    "從": "从",
    "無": "无",
    "䟽": "疏",
    "𫝊": "传",
    # OCR slips inside the formula: 冇 for 有 (此下今注疏本冇也字), 摢 for 據, 敎 for 敖 (敎繼公云)
    "冇": "有",
    "摢": "据",
    "敎": "敖",
}


#: Verbs that close an evidence clause (据宋本改正 / 从宋本补 / 据宋本删), in the order the
#: grammar tries them (a longer verb before its prefix: 改正 before 改).
EMENDATION_VERBS: tuple[str, ...] = (
    "改正", "订正", "校正", "改定", "更正", "补正", "补入", "增入", "删去", "乙正", "改", "补", "增", "添", "删", "削", "正",
)

#: Emendation verbs that call the other reading an error: X今注疏本作Y据宋本改 is a
#: corruption of the target, not a mere variant.
CORRECTING_VERBS: frozenset[str] = frozenset({"改正", "订正", "校正", "改定", "更正", "改", "正"})

#: Scope markers: the claim holds for this place and the later ones (下同), in the order tried.
SCOPE_BELOW: tuple[str, ...] = (
    "以下并同", "以下皆同", "以下同", "下并同", "下皆同", "下俱同", "下仿此", "后仿此", "下放此", "后并同", "后同", "下同", "余同",
)

#: Scope markers for the 注 (禮賓之禮當作醴注同): the claim holds here and in the 注 that follow, up to the next 经
#: that has the lemma again, not in every later passage (read as 下同 it had changed 45 禮 of 聘禮 to 醴).
SCOPE_ZHU: tuple[str, ...] = ("注并同", "注皆同", "注亦同", "注同")

#: Words that open the editors' own judgement: what follows is argument, not a further claim.
JUDGEMENT_OPENERS: tuple[str, ...] = ("当是", "疑是", "疑当", "盖", "似", "疑", "则", "是", "故", "然", "乃")

#: Phrases with which the editors reject a conjecture they report (敖继公云X当作Y非是).
REJECTIONS: tuple[str, ...] = ("非是", "非也", "恐非", "未确", "未然", "不可从", "未可从", "不足据", "不足信", "无据")

#: The layer a note names before its claim (经文X今注疏本讹作Y / 注内X…), by first character.
LAYER_OF_PREFIX: dict[str, str] = {"经": "jing", "注": "zhu", "疏": "shu"}

#: Simplified characters that are also ordinary traditional characters: OpenCC ``s2t``
#: changes them, but they prove nothing about the script a note is written in.
SHARED_FORMS: frozenset[str] = frozenset(
    "于云后内脱台干里面发余只系制范松谷丑冲斗历征采几御准涂板表舍郁吁姜仆朴别克千困借苏升叶回团夲并凶咸折"
)

#: Targets whose claim covers the 四库 注疏 we hold, so that it can be checked against it:
#: 各本 / 诸本 ("every edition") include it (GUIDE §3).
INCLUDES_ZHUSHU: frozenset[str] = frozenset({"zhushu", "zhuben"})

#: Lookalikes of single characters of the formula (宇 for 字, 木 for 本, 椄 for 接 …), as the
#: copyists and the transcription slip: tried only where a note does not parse as written, one at
#: a time, and kept only where the rest of the formula then stands (the record says so in ``slips``).
#: A character of a lemma is never repaired (宇 is a word of the 儀禮 too: 宇檐也).
FORMULA_SLIPS: dict[str, str] = {
    "宇": "字", "孛": "字", "木": "本", "椄": "接", "讬": "讹", "诧": "讹",
    "挩": "脱", "悦": "脱", "衔": "衍", "俶": "作", "昨": "作", "祚": "作", "措": "据", "掳": "据",
}
