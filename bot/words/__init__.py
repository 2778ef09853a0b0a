"""What people read: the catalogues (``i18n``), shared wording (``texts``), how a name is shown
(``names``), fitting text where Telegram shows it (``format``: captions, pop-ups, links, medals,
points), numbers typed by people (``numbers``) and refusals worded for the presser (``refusals``).

The ground floor: it may use the engines' game descriptions and nothing else of ``bot``.
"""
